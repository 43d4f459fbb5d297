package io.upic.liftride.client.cli;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * {@code --start-at INSTANT}: shards started apart begin their first run at one instant; one more than {@link
 * #TOLERANCE} late refuses to start, as it would run alone. Not thread-safe: one invocation's.
 *
 * @param at      when the first run starts
 * @param clock   what tells the time
 * @param sleeper what waits ({@link Thread#sleep} in production)
 */
public record StartAt(Instant at, Clock clock, Sleeper sleeper) {

    /** What --start-at takes, as its messages say it. */
    public static final String RULE = "an ISO-8601 instant such as 2026-12-01T09:00:00Z";

    /** How late a shard may still start: clocks a little apart, a pod's start a little slow. */
    public static final Duration TOLERANCE = Duration.ofSeconds(5);

    /** The longest single sleep, so that a stop is seen within it. */
    private static final Duration STEP = Duration.ofMillis(200);

    /** Waits for a while; {@link Thread#sleep} in production. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** The start at {@code at} on the system clock, waiting with {@link Thread#sleep}. */
    public static StartAt onSystemClock(Instant at) {
        return new StartAt(at, Clock.systemUTC(), d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    /**
     * The instant in {@code text} ({@code 2026-12-01T09:00:00Z}, or with an offset such as {@code +01:00}).
     *
     * @throws IllegalArgumentException when it is no ISO-8601 instant
     */
    public static Instant parse(String text) {
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an instant with a date, a time and a zone");
        }
    }

    /** One line saying how late this start is, when it is past the instant by more than {@link #TOLERANCE}. */
    public String lateness() {
        Duration late = Duration.between(at, clock.instant());
        if (late.compareTo(TOLERANCE) <= 0) {
            return null;
        }
        return String.format(
                Locale.US,
                "--start-at %s passed %.1f s ago (more than the %d s allowed): this shard does not start late and"
                        + " alone",
                at,
                late.toMillis() / 1000.0,
                TOLERANCE.toSeconds());
    }

    /** How long until the instant; zero or negative once it has come. */
    public Duration remaining() {
        return Duration.between(clock.instant(), at);
    }

    /**
     * Sleeps until the instant, or until {@code stopped} says so; returns {@link #lateness()} (null: in time).
     *
     * @throws InterruptedException when the sleep is interrupted
     */
    public String await(BooleanSupplier stopped) throws InterruptedException {
        String late = lateness();
        if (late != null) {
            return late;
        }
        for (Duration left = remaining(); left.compareTo(Duration.ZERO) > 0 && !stopped.getAsBoolean(); ) {
            sleeper.sleep(left.compareTo(STEP) < 0 ? left : STEP);
            left = remaining();
        }
        return null;
    }
}
