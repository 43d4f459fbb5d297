package io.upic.liftride.cluster;

import java.time.Duration;

/** Waiting for a process or a port to be ready: polls every 50 ms up to a limit. Stateless. */
public final class Poll {
    private Poll() {}

    /** A condition to wait for; it may throw (an HTTP probe, a file read), which ends the wait. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /**
     * Returns once {@code ready} is true; throws IllegalStateException "{@code what} did not answer within N s"
     * after {@code limit}. {@code ready} may itself throw to stop the wait early (a process that ended): unchecked
     * throwables pass as they are, checked ones wrapped in an IllegalStateException.
     */
    public static void until(String what, Duration limit, Condition ready) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!holds(ready)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not answer within " + limit.toSeconds() + " s");
            }
            sleep(50);
        }
    }

    private static boolean holds(Condition ready) {
        try {
            return ready.holds();
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
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
