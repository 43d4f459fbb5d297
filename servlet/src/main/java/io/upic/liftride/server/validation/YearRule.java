package io.upic.liftride.server.validation;

/**
 * A season written as a 4-digit year: exactly four ASCII digits with a value of at least {@code min};
 * immutable and thread-safe.
 */
public record YearRule(String name, int min) {
    public YearRule {
        if (min < 0 || min > 9999) {
            throw new IllegalArgumentException("min must be in 0..9999, got " + min);
        }
    }

    /** The rule in words, e.g. {@code a 4-digit year (exactly 4 ASCII digits)}. */
    public String describe() {
        return min == 0 ? "a 4-digit year (exactly 4 ASCII digits)" : "a 4-digit year in " + min + "..9999";
    }

    /** The year if {@code text} obeys the rule, else {@link IntRule#INVALID}; never throws. */
    public int parseText(String text) {
        if (text.length() != 4) {
            return IntRule.INVALID;
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return IntRule.INVALID;
            }
            value = value * 10 + (c - '0');
        }
        return value >= min ? value : IntRule.INVALID;
    }

    /** {@code seasonID must be a 4-digit year (exactly 4 ASCII digits), got "22"}. */
    public Rejection rejectText(String text) {
        return reject(Values.quote(text));
    }

    /** As {@link #rejectText} with {@code got} already rendered (for JSON values of the wrong type). */
    public Rejection reject(String got) {
        return Rejection.badRequest(name + " must be " + describe() + ", got " + got);
    }

    public Rejection missing() {
        return Rejection.badRequest(name + " is required (" + describe() + ")");
    }
}
