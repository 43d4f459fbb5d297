package io.upic.liftride.client.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until a {@code System.nanoTime()} deadline with sub-millisecond precision at little CPU: it parks until
 * {@link #SPIN_NANOS} before the deadline and spins ({@link Thread#onSpinWait}) the rest. One instance per worker;
 * not thread-safe. Public for the bench module's {@code PacerBenchmark}, which measures other spin margins.
 */
public final class Pacer {

    /**
     * How long before the deadline parking stops, then spins. {@code parkNanos} oversleeps by the kernel's timer
     * slack (50 µs on Linux) plus the wake-up; a longer spin lands closer to the deadline but costs CPU per send,
     * the scarcer resource (data/open-model.md has the trade-off measured).
     */
    static final long SPIN_NANOS = 50_000;

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
    private final long spinNanos;

    Pacer(Clock clock) {
        this(clock, SPIN_NANOS);
    }

    private Pacer(Clock clock, long spinNanos) {
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos < 0: " + spinNanos);
        }
        this.clock = clock;
        this.spinNanos = spinNanos;
    }

    /** A pacer on the system clock that stops parking {@code spinNanos} before each deadline (benchmarks). */
    public static Pacer withSpinMargin(long spinNanos) {
        return new Pacer(Clock.SYSTEM, spinNanos);
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
                clock.parkNanos(Math.min(left - spinNanos, 20_000_000L));
            } else {
                clock.spin();
            }
        }
    }
}
