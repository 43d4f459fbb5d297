package io.upic.liftride.server.limits;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The value of every {@link Limit} one server runs with; immutable and thread-safe. First found wins: the
 * launcher's flag, the system property, the environment variable, the default.
 */
public record Limits(Map<Limit, Long> values) {
    /** The ServletContext attribute under which the web application keeps its limits. */
    public static final String ATTRIBUTE = Limits.class.getName();

    /** Every limit at its default. */
    public static final Limits DEFAULTS = new Limits(new EnumMap<>(Limit.class));

    /** {@code values}, each limit missing there at its default. */
    public Limits {
        EnumMap<Limit, Long> all = new EnumMap<>(Limit.class);
        for (Limit limit : Limit.values()) {
            all.put(limit, values.getOrDefault(limit, limit.defaultValue()));
        }
        values = Collections.unmodifiableMap(all);
    }

    /**
     * The limits from {@code launcher} (a lookup by property name, e.g. the context parameters;
     * null when not given), else the system properties, else the environment, else the defaults.
     * Throws IllegalArgumentException naming the first bad value.
     */
    public static Limits resolve(UnaryOperator<String> launcher) {
        EnumMap<Limit, Long> given = new EnumMap<>(Limit.class);
        for (Limit limit : Limit.values()) {
            String text = launcher.apply(limit.property());
            if (text == null) {
                text = System.getProperty(limit.property());
            }
            if (text == null) {
                text = System.getenv(limit.env());
            }
            if (text != null) {
                given.put(limit, limit.parse(text));
            }
        }
        return new Limits(given);
    }

    /**
     * The integer setting {@code name} from {@code lookup} in {@code min..max}; {@code fallback} when not set.
     * Throws IllegalArgumentException naming the setting, the rule and the value.
     */
    public static long setting(UnaryOperator<String> lookup, String name, long fallback, long min, long max) {
        String text = lookup.apply(name);
        return text == null || text.isBlank() ? fallback : parse(text, name, min, max);
    }

    /** {@code text} as an integer in {@code min..max}, else IllegalArgumentException naming {@code name}. */
    static long parse(String text, String name, long min, long max) {
        try {
            long value = Long.parseLong(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below with the rule and the value
        }
        throw new IllegalArgumentException(
                name + " must be an integer in " + min + ".." + max + ", got \"" + text + "\"");
    }

    /** A copy with {@code limit} set to {@code value} (checked against the limit's range). */
    public Limits with(Limit limit, long value) {
        limit.parse(Long.toString(value));
        EnumMap<Limit, Long> copy = new EnumMap<>(values);
        copy.put(limit, value);
        return new Limits(copy);
    }

    public long get(Limit limit) {
        return values.get(limit);
    }

    /** {@link #get} as an int (every limit's range fits one). */
    public int count(Limit limit) {
        return (int) Math.min(Integer.MAX_VALUE, values.get(limit));
    }

    /** One client's budget: {@link Limit#CLIENT_SHARE_PERCENT} of the limit, rounded up, at least 1. */
    public long clientBudget(Limit limit) {
        return Math.max(1, (get(limit) * get(Limit.CLIENT_SHARE_PERCENT) + 99) / 100);
    }
}
