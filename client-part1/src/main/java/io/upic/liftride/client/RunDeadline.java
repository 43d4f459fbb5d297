package io.upic.liftride.client;

import io.upic.liftride.client.cli.MaxDuration;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The {@code --max-duration} of one invocation, from its start: once it has passed, {@code onPassed} gets the
 * reason (once, on a thread of its own) unless the invocation {@link #close}d first. Thread-safe.
 */
final class RunDeadline implements AutoCloseable {

    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile String reason;

    private RunDeadline() {}

    /**
     * Starts the clock of {@code limit} ({@link MaxDuration#NONE}: no limit, nothing is started).
     *
     * @param byDefault whether the limit is the default (the reason says so, and how to change it)
     */
    static RunDeadline start(Duration limit, boolean byDefault, Consumer<String> onPassed) {
        RunDeadline d = new RunDeadline();
        if (limit.isZero()) {
            return d;
        }
        String why = "--max-duration " + MaxDuration.format(limit)
                + (byDefault ? " (the default for this plan; --max-duration sets another, 0 none)" : "")
                + " passed: stopped sending, the attempts in flight ended, the requests not sent yet were not"
                + " attempted";
        // Not the engine's (nor is --abort-on-fail's watch): it only waits, then stops the run.
        Thread t = new Thread(
                () -> {
                    try {
                        if (!d.closed.await(limit.toNanos(), TimeUnit.NANOSECONDS)) {
                            d.reason = why;
                            onPassed.accept(why);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "liftride-max-duration");
        t.setDaemon(true);
        t.start();
        return d;
    }

    /** Why the invocation was stopped at its deadline, or null while it has not passed. */
    String reason() {
        return reason;
    }

    /** Ends the wait: the deadline no longer applies. Idempotent. */
    @Override
    public void close() {
        closed.countDown();
    }
}
