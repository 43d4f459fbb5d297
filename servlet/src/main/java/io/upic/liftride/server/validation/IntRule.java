package io.upic.liftride.server.validation;

/**
 * An integer parameter or field: its name, its inclusive range and, for text, at most how many digits
 * it may be written with (0 = any number); immutable and thread-safe.
 *
 * <p>Text (path segments, query values) is ASCII decimal digits only: no sign, no spaces, no
 * exponent; leading zeros are allowed, as the contract's own dayID pattern allows them.
 */
public record IntRule(String name, int min, int max, int maxDigits) {
    /** What {@link #parseText} returns for text that breaks the rule; every rule's range is non-negative. */
    public static final int INVALID = -1;

    public IntRule {
        if (min < 0 || min > max) {
            throw new IllegalArgumentException("range must satisfy 0 <= min <= max, got " + min + ".." + max);
        }
        if (maxDigits < 0) {
            throw new IllegalArgumentException("maxDigits must be >= 0, got " + maxDigits);
        }
    }

    public IntRule(String name, int min, int max) {
        this(name, min, max, 0);
    }

    /** The rule in words, e.g. {@code an integer in 1..60}. */
    public String describe() {
        String range = "an integer in " + min + ".." + max;
        return maxDigits == 0 ? range : range + " of at most " + maxDigits + " digits";
    }

    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** The value of {@code text} if it obeys the rule, else {@link #INVALID}; never throws. */
    public int parseText(String text) {
        int length = text.length();
        if (length == 0 || (maxDigits > 0 && length > maxDigits)) {
            return INVALID;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return INVALID;
            }
            value = value * 10 + (c - '0');
            if (value > max) {
                return INVALID; // also stops overflow: value stays below 10 x Integer.MAX_VALUE
            }
        }
        return value >= min ? (int) value : INVALID;
    }

    /** {@code liftID must be an integer in 1..60, got "abc"}: for text from the path or the query. */
    public Rejection rejectText(String text) {
        return Rejection.badRequest(name + " must be " + describe() + ", got " + Values.quote(text));
    }

    /** {@code liftID must be an integer in 1..60, got 61}: {@code got} is already rendered. */
    public Rejection rejectJson(String got) {
        return Rejection.badRequest(name + " must be " + describe() + ", got " + got);
    }

    /** {@code liftID is required (an integer in 1..60)}. */
    public Rejection missing() {
        return Rejection.badRequest(name + " is required (" + describe() + ")");
    }
}
