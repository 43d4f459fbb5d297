package io.upic.liftride.server.operations;

import io.upic.liftride.server.limits.Limits;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * How the server drains ({@value #DRAIN_GRACE}: accepting after readiness turned 503; {@value #DRAIN_MAX}: the whole
 * drain), how long readiness waits for the store ({@value #PING_DEADLINE}) and whether {@code /metrics} is served
 * ({@value #METRICS}); immutable. Each comes from the context parameter, else the system property, else its default.
 */
public record OperatingSettings(Duration drainGrace, Duration drainMax, Duration pingDeadline, boolean metrics) {
    public static final String DRAIN_GRACE = "liftride.drain.graceMillis";
    public static final String DRAIN_MAX = "liftride.drain.maxMillis";
    public static final String PING_DEADLINE = "liftride.health.pingMillis";
    public static final String METRICS = "liftride.metrics";

    static final long DEFAULT_GRACE_MILLIS = 2_000;
    static final long DEFAULT_MAX_MILLIS = 30_000;
    static final long DEFAULT_PING_MILLIS = 250;
    private static final long HOUR_MILLIS = 3_600_000;

    public OperatingSettings {
        if (drainGrace.isNegative()) {
            throw new IllegalArgumentException(DRAIN_GRACE + " < 0: " + drainGrace.toMillis());
        }
        if (drainMax.compareTo(drainGrace) < 0) {
            throw new IllegalArgumentException(
                    DRAIN_MAX + " < " + DRAIN_GRACE + ": " + drainMax.toMillis() + " < " + drainGrace.toMillis());
        }
        if (pingDeadline.toMillis() < 1) {
            throw new IllegalArgumentException(PING_DEADLINE + " < 1: " + pingDeadline.toMillis());
        }
    }

    /**
     * Reads every setting through {@code lookup} (name to value, null when not set).
     *
     * @throws IllegalArgumentException naming the setting and the value that is wrong
     */
    public static OperatingSettings read(UnaryOperator<String> lookup) {
        return new OperatingSettings(
                Duration.ofMillis(Limits.setting(lookup, DRAIN_GRACE, DEFAULT_GRACE_MILLIS, 0, HOUR_MILLIS)),
                Duration.ofMillis(Limits.setting(lookup, DRAIN_MAX, DEFAULT_MAX_MILLIS, 0, HOUR_MILLIS)),
                Duration.ofMillis(Limits.setting(lookup, PING_DEADLINE, DEFAULT_PING_MILLIS, 0, HOUR_MILLIS)),
                onOff(lookup.apply(METRICS)));
    }

    /** A context parameter of that name, else the system property. */
    public static UnaryOperator<String> contextThenSystem(UnaryOperator<String> contextParameter) {
        return name -> {
            String value = contextParameter.apply(name);
            return value != null ? value : System.getProperty(name);
        };
    }

    private static boolean onOff(String text) {
        if (text == null || text.isBlank() || text.strip().equalsIgnoreCase("on")) {
            return true;
        }
        if (text.strip().equalsIgnoreCase("off")) {
            return false;
        }
        throw new IllegalArgumentException(METRICS + " must be on or off, got \"" + text + "\"");
    }
}
