package io.upic.liftride.server.limits;

import java.util.EnumMap;
import java.util.function.UnaryOperator;

/**
 * The value of every {@link Limit} one server runs with; immutable and thread-safe. First found wins: the
 * launcher's flag, the system property, the environment variable, the default.
 */
public final class Limits {
    /** The ServletContext attribute under which the web application keeps its limits. */
    public static final String ATTRIBUTE = Limits.class.getName();

    /** Every limit at its default. */
    public static final Limits DEFAULTS = new Limits(new EnumMap<>(Limit.class));

    private final EnumMap<Limit, Long> values;

    private Limits(EnumMap<Limit, Long> given) {
        values = new EnumMap<>(Limit.class);
        for (Limit limit : Limit.values()) {
            values.put(limit, given.getOrDefault(limit, limit.defaultValue()));
        }
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

    @Override
    public boolean equals(Object other) {
        return other instanceof Limits that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "Limits" + values;
    }
}
