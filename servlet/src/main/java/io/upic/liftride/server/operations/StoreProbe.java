package io.upic.liftride.server.operations;

import io.upic.liftride.server.store.RideStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The readiness check's store ping, bounded by a deadline however long the store takes: the ping
 * runs on one thread of its own, and a request waits for it at most the deadline. At most one ping is
 * in flight: checks that arrive while one is under way wait for that one, so a hung Redis costs one
 * thread, not one per health check. Thread-safe; {@link #close()} stops the thread.
 */
final class StoreProbe implements AutoCloseable {
    /** A check's outcome: whether the store answered, and what to tell the caller. */
    record Outcome(boolean up, String message) {}

    private final RideStore store;
    private final Duration deadline;
    private final ExecutorService pinger = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "liftride-health-ping");
        thread.setDaemon(true);
        return thread;
    });
    private CompletableFuture<Long> inFlight; // guarded by this

    StoreProbe(RideStore store, Duration deadline) {
        this.store = store;
        this.deadline = deadline;
    }

    /** Pings the store (or joins the ping under way) and waits at most the deadline. */
    Outcome check() {
        CompletableFuture<Long> ping;
        synchronized (this) {
            if (inFlight == null || inFlight.isDone()) {
                inFlight = CompletableFuture.supplyAsync(this::timedPing, pinger);
            }
            ping = inFlight;
        }
        try {
            long nanos = ping.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
            return new Outcome(true, "answered in " + TimeUnit.NANOSECONDS.toMicros(nanos) + " us");
        } catch (TimeoutException e) {
            return new Outcome(false, "no answer within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            return new Outcome(false, String.valueOf(e.getCause().getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, "interrupted while waiting for the store");
        }
    }

    private long timedPing() {
        long start = System.nanoTime();
        store.ping();
        return System.nanoTime() - start;
    }

    @Override
    public void close() {
        pinger.shutdownNow();
    }
}
