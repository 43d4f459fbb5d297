package io.upic.liftride.client.threshold;

/** A threshold's operator. Stateless and thread-safe. */
public enum Comparison {
    // two-character operators first, so that parsing "<=" never stops at "<"
    LESS_OR_EQUAL("<="),
    GREATER_OR_EQUAL(">="),
    EQUAL("=="),
    LESS("<"),
    GREATER(">");

    private final String symbol;

    Comparison(String symbol) {
        this.symbol = symbol;
    }

    /** As written in an expression. */
    public String symbol() {
        return symbol;
    }

    /** Whether {@code measured OP bound} holds; false for a NaN measurement. */
    public boolean holds(double measured, double bound) {
        if (Double.isNaN(measured)) {
            return false;
        }
        return switch (this) {
            case LESS_OR_EQUAL -> measured <= bound;
            case GREATER_OR_EQUAL -> measured >= bound;
            case EQUAL -> measured == bound;
            case LESS -> measured < bound;
            case GREATER -> measured > bound;
        };
    }
}
