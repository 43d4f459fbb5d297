package io.upic.liftride.flags;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import lombok.With;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;

/**
 * One command-line flag, written once: names, argument, help, default and the rule its value follows;
 * {@link Flags} turns a table of these into parsing, usage and one-line errors, and {@link #check} applies
 * the same integer ranges to records built without a command line. Immutable and thread-safe.
 *
 * @param <T>               the parsed value's type
 * @param shortName         the one-letter name ({@code t} for -t), or null
 * @param longName          the long name ({@code threads} for --threads), as Commons CLI knows the option
 * @param argName           the value's name in the usage ({@code N}, {@code MS}); null for a toggle
 * @param rule              what a value must be, as messages say it ({@code an integer in 5..60}); null for a toggle
 * @param missingValueHint  what "needs a value (...)" says; the rule unless set otherwise
 * @param defaultValue      the value when the flag is absent; null: none, or the flag is required
 * @param help              the usage text
 * @param parser            the value from its text; null for a toggle
 * @param min               an integer flag's least value, checked by {@link #check}
 * @param max               an integer flag's greatest value; below {@code min} when the value is no integer
 * @param explainsRejection whether a rejection shows the parser's reason: "must be RULE (REASON), got TEXT"
 */
@With
public record Flag<T>(
        String shortName,
        String longName,
        String argName,
        String rule,
        String missingValueHint,
        T defaultValue,
        String help,
        Parser<T> parser,
        int min,
        int max,
        boolean explainsRejection) {

    /** Turns a flag's text into its value. */
    @FunctionalInterface
    public interface Parser<T> {

        /**
         * The value of {@code text} (untrimmed, as typed).
         *
         * @throws IllegalArgumentException (a {@link NumberFormatException} included) when the text breaks the
         *     flag's rule; the flag turns it into its one-line message
         * @throws UsageException for a message of the parser's own
         */
        T parse(String text) throws UsageException;

        /** A parser whose rejections name the flag already: their message, after {@code prefix}, is the error. */
        static <T> Parser<T> ownMessage(String prefix, Function<String, T> parse) {
            return text -> {
                try {
                    return parse.apply(text);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(prefix + e.getMessage());
                }
            };
        }
    }

    public Flag {
        Objects.requireNonNull(longName, "longName");
        Objects.requireNonNull(help, "help");
    }

    /** A flag taking a value, with its complete usage text; see the record's components. */
    public static <T> Flag<T> of(
            String shortName,
            String longName,
            String argName,
            String rule,
            T defaultValue,
            String help,
            Parser<T> parser) {
        return new Flag<>(
                shortName,
                longName,
                argName,
                rule,
                rule,
                defaultValue,
                help,
                Objects.requireNonNull(parser, "parser"),
                0,
                -1,
                false);
    }

    /** An integer flag in {@code min..max}; the usage shows the range and the default (or "(required)"). */
    public static Flag<Integer> integer(
            String shortName, String longName, String argName, String what, int min, int max, Integer defaultValue) {
        String help =
                what + ", " + min + ".." + max + (defaultValue == null ? " (required)" : ", default " + defaultValue);
        return of(shortName, longName, argName, integerRule(min, max), defaultValue, help, text -> {
                    int n = Integer.parseInt(text.trim());
                    if (n < min || n > max) {
                        throw new IllegalArgumentException(n + " not in " + min + ".." + max);
                    }
                    return n;
                })
                .withMin(min)
                .withMax(max);
    }

    /** A flag without a value: true when given. */
    public static Flag<Boolean> toggle(String shortName, String longName, String help) {
        return new Flag<>(shortName, longName, null, null, null, false, help, null, 0, -1, false);
    }

    /** How messages name the flag: {@code -t/--threads}, or {@code --seed} without a short name. */
    public String displayName() {
        return shortName == null ? "--" + longName : "-" + shortName + "/--" + longName;
    }

    /** The Commons CLI option. */
    public Option option() {
        Option.Builder b = shortName == null ? Option.builder() : Option.builder(shortName);
        b.longOpt(longName).desc(help);
        if (argName != null) {
            b.hasArg().argName(argName);
        }
        return b.build();
    }

    /**
     * This flag's value in {@code cl}, or its default when absent.
     *
     * @throws UsageException when the value breaks the rule
     */
    @SuppressWarnings("unchecked") // a toggle's T is Boolean
    public T valueIn(CommandLine cl) throws UsageException {
        if (!cl.hasOption(longName)) {
            return defaultValue;
        }
        if (parser == null) {
            return (T) Boolean.TRUE;
        }
        return valueOf(cl.getOptionValue(longName));
    }

    /**
     * Every value of a repeatable flag in {@code cl}, in the order given; empty when absent.
     *
     * @throws UsageException when a value breaks the rule
     */
    public List<T> valuesIn(CommandLine cl) throws UsageException {
        if (parser == null || !cl.hasOption(longName)) {
            return List.of();
        }
        List<T> values = new ArrayList<>();
        for (String text : cl.getOptionValues(longName)) {
            values.add(valueOf(text));
        }
        return List.copyOf(values);
    }

    private T valueOf(String text) throws UsageException {
        try {
            return parser.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(text, explainsRejection ? e.getMessage() : null);
        }
    }

    /** "X must be RULE, got TEXT". */
    public UsageException invalid(String text) {
        return invalid(text, null);
    }

    private UsageException invalid(String text, String reason) {
        return new UsageException(
                displayName() + " must be " + rule + (reason == null ? "" : " (" + reason + ")") + ", got " + text);
    }

    /** "X needs a value (HINT)". */
    public UsageException missingValue() {
        return new UsageException(
                displayName() + " needs a value" + (missingValueHint == null ? "" : " (" + missingValueHint + ")"));
    }

    /** "X is required (RULE)". */
    public UsageException missing() {
        return new UsageException(displayName() + " is required (" + rule + ")");
    }

    /**
     * Checks a field that holds this integer flag's value, for a record built without the command line.
     *
     * @throws IllegalArgumentException e.g. {@code lifts not in 5..60: 61}
     */
    public void check(String field, int value) {
        if (min > max) {
            throw new IllegalStateException(displayName() + " has no integer range");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " not in " + min + ".." + max + ": " + value);
        }
    }

    /** "an integer in MIN..MAX", as messages and usages say it. */
    public static String integerRule(long min, long max) {
        return "an integer in " + min + ".." + max;
    }
}
