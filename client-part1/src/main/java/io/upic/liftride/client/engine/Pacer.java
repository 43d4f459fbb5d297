package io.upic.liftride.client.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a {@code System.nanoTime()} deadline with sub-millisecond precision at little CPU: parks until a
 * learned margin (at most {@link #SPIN_NANOS}) before it, then spins. One instance per worker; not thread-safe.
 * Public for the bench module's {@code PacerBenchmark}.
 */
public final class Pacer {

    /** The longest spin before a deadline: longer lands closer but costs CPU per send (data/open-model.md). */
    static final long SPIN_NANOS = 50_000;

    /** How far one park's oversleep moves a learned margin towards it: the median tracker's step. */
    static final long LEARN_STEP_NANOS = 1_000;

    /** Time and waiting, replaceable by a fake in tests. */
    interface Clock {
        Clock SYSTEM = new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void parkNanos(long nanos) {
                LockSupport.parkNanos(nanos);
            }

            @Override
            public void spin() {
                Thread.onSpinWait();
            }
        };

        long nanoTime();

        void parkNanos(long nanos);

        void spin();
    }

    private final Clock clock;
    private final boolean learns;
    private long spinNanos;

    /** A pacer that learns its margin, starting at and never above {@link #SPIN_NANOS}. */
    Pacer(Clock clock) {
        this(clock, SPIN_NANOS, true);
    }

    private Pacer(Clock clock, long spinNanos, boolean learns) {
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos < 0: " + spinNanos);
        }
        this.clock = clock;
        this.spinNanos = spinNanos;
        this.learns = learns;
    }

    /** A pacer on the system clock that stops parking {@code spinNanos} before each deadline (benchmarks). */
    public static Pacer withSpinMargin(long spinNanos) {
        return new Pacer(Clock.SYSTEM, spinNanos, false);
    }

    /** The margin before a deadline at which parking stops now. */
    long spinNanos() {
        return spinNanos;
    }

    /**
     * Returns at {@code deadlineNanos} or at once if it has passed, with how late it returned ({@code >= 0}).
     * Returns early, with the time so far, when {@code stopRequested} turns true while parked.
     */
    public long awaitUntil(long deadlineNanos, java.util.function.BooleanSupplier stopRequested) {
        while (true) {
            long now = clock.nanoTime();
            long left = deadlineNanos - now;
            if (left <= 0) {
                return -left;
            }
            if (left > spinNanos) {
                if (stopRequested.getAsBoolean()) {
                    return 0;
                }
                // slices of at most 20 ms, so a stop is noticed promptly on a slow schedule
                long park = Math.min(left - spinNanos, 20_000_000L);
                clock.parkNanos(park);
                if (learns) {
                    long oversleep = clock.nanoTime() - now - park;
                    spinNanos = Math.max(
                            0, Math.min(SPIN_NANOS, spinNanos + (oversleep > spinNanos ? 1 : -1) * LEARN_STEP_NANOS));
                }
            } else {
                clock.spin();
            }
        }
    }
}
