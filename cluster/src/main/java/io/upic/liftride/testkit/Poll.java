package io.upic.liftride.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting for a process or a port to be ready: polls every 50 ms up to a limit. Stateless. */
public final class Poll {
    private Poll() {}

    /**
     * Returns once {@code ready} is true; throws IllegalStateException "{@code what} did not answer within N s"
     * after {@code limit}. {@code ready} may itself throw to stop the wait early (a process that ended).
     */
    public static void until(String what, Duration limit, BooleanSupplier ready) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not answer within " + limit.toSeconds() + " s");
            }
            sleep(50);
        }
    }

    /** Thread.sleep that turns an interrupt into an IllegalStateException (keeping the interrupt flag). */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }
}
