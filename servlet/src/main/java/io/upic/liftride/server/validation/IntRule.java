package io.upic.liftride.server.validation;

/**
 * An integer parameter or field: its name, its inclusive range and, for text, at most how many digits it may be
 * written with (0 = any number; a year is exactly 4 digits); immutable and thread-safe. Text (path segments,
 * query values, JSON number literals) is ASCII decimal digits only: no sign, no exponent; leading zeros allowed.
 */
public record IntRule(String name, int min, int max, int maxDigits, boolean year) {
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
        this(name, min, max, 0, false);
    }

    /** A season written as a 4-digit year, at least {@code min}. */
    public static IntRule year(String name, int min) {
        return new IntRule(name, min, 9999, 4, true);
    }

    /** The rule in words, e.g. {@code an integer in 1..60}. */
    public String describe() {
        if (year) {
            return min == 0 ? "a 4-digit year (exactly 4 ASCII digits)" : "a 4-digit year in " + min + "..9999";
        }
        String range = "an integer in " + min + ".." + max;
        return maxDigits == 0 ? range : range + " of at most " + maxDigits + " digits";
    }

    /** The value of {@code text} if it obeys the rule, else {@link #INVALID}; never throws. */
    public int parseText(String text) {
        int length = text.length();
        if (length == 0 || (maxDigits > 0 && length > maxDigits) || (year && length != 4)) {
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
        return reject(Values.quote(text));
    }

    /** {@code liftID must be an integer in 1..60, got 61}: {@code got} is already rendered. */
    public Rejection reject(String got) {
        return Rejection.badRequest(name + " must be " + describe() + ", got " + got);
    }

    /** {@code liftID is required (an integer in 1..60)}. */
    public Rejection missing() {
        return Rejection.badRequest(name + " is required (" + describe() + ")");
    }

    /** The value of {@code text}, or the 400 naming the rule. */
    Result<Integer> parse(String text) {
        int value = parseText(text);
        return value == INVALID ? Result.rejected(rejectText(text)) : Result.ok(value);
    }
}
