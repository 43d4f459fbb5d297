package io.upic.liftride.client;

import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Ctrl-C for a command-line entry that runs a {@link Sweep}: on JVM shutdown, stop the sweep and wait until its
 * partial account is out. Thread-safe: the shutdown hook calls {@link #onShutdown()} while the main thread runs.
 */
public final class CtrlC {

    /** How long Ctrl-C waits for the workers' in-flight attempts and the partial account. */
    static final long SHUTDOWN_WAIT_SECONDS = 60;

    private final PrintStream err;
    private final String whatHappensNext;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Sweep sweep;
    private volatile boolean shuttingDown;

    /**
     * @param err             where the one "interrupted" line goes
     * @param whatHappensNext the end of that line, e.g. "printing the partial account"
     */
    public CtrlC(PrintStream err, String whatHappensNext) {
        this.err = Objects.requireNonNull(err, "err");
        this.whatHappensNext = Objects.requireNonNull(whatHappensNext, "whatHappensNext");
    }

    /**
     * Runs {@code account} (which runs {@code s} and prints its account) where the next Ctrl-C stops {@code s} and
     * waits until {@code account} returns; stops {@code s} at once if Ctrl-C came before. Called once.
     */
    public int run(Sweep s, IntSupplier account) {
        sweep = s;
        if (shuttingDown) {
            s.stop(null);
        }
        try {
            return account.getAsInt();
        } finally {
            finished.countDown();
        }
    }

    /** What the JVM's shutdown hook does: stop the sweep and wait for its partial account. */
    public void onShutdown() {
        shuttingDown = true;
        Sweep s = sweep;
        if (s == null || finished.getCount() == 0) {
            return;
        }
        err.println();
        err.println("interrupted: stopping after the attempts in flight, then " + whatHappensNext);
        s.stop(null);
        try {
            finished.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs {@code command} under a shutdown hook that calls {@link #onShutdown()}, then exits the JVM
     * with its code; after Ctrl-C the JVM exits with the signal's code once the hook is done.
     */
    public void runAndExit(IntSupplier command) {
        // The one thread not owned by the engine: the JVM only accepts a Thread as a shutdown hook.
        Thread hook = new Thread(this::onShutdown, "liftride-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = command.getAsInt();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            return; // Ctrl-C: the hook waited for the partial account; the JVM exits with the signal's code
        }
        System.exit(code);
    }
}
