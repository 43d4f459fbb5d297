package io.upic.liftride.client.http.sdk;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import okhttp3.Call;

/**
 * The deadline of a whole SDK call, enforced by one watchdog thread per run that cancels calls past it (within a
 * {@link #tickNanos}); cheaper than OkHttp's {@code callTimeout}, whose shared lock client-sdk/templates/README.md
 * measures. Thread-safe.
 */
final class CallDeadlines implements AutoCloseable {

    private final long timeoutNanos;
    private final long tickNanos;
    private final Queue<Slot> slots = new ConcurrentLinkedQueue<>();
    private final Thread watchdog;
    private volatile boolean closed;

    /** Starts the watchdog (a daemon thread) for calls of at most {@code timeoutMillis} each. */
    CallDeadlines(int timeoutMillis, String name) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        // a tenth of the deadline, between 1 ms and 100 ms: 15 s deadlines are checked 10 times a second
        this.tickNanos = Math.max(1_000_000L, Math.min(100_000_000L, timeoutNanos / 10));
        this.watchdog = new Thread(this::watch, name);
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** How often the watchdog looks, in nanoseconds. */
    long tickNanos() {
        return tickNanos;
    }

    /** A slot for one worker's calls (one call at a time). */
    Slot newSlot() {
        Slot s = new Slot();
        slots.add(s);
        return s;
    }

    /** Forgets {@code slot}, whose worker has ended. */
    void remove(Slot slot) {
        slots.remove(slot);
    }

    private void watch() {
        while (!closed) {
            LockSupport.parkNanos(this, tickNanos);
            long now = System.nanoTime();
            for (Slot s : slots) {
                s.cancelIfLate(now);
            }
        }
    }

    /** Stops the watchdog; calls running now are no longer bounded by it. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(watchdog);
    }

    /** One worker's call in flight, if any. Written by the worker, read by the watchdog. */
    final class Slot {
        private volatile Call call;
        private volatile long deadlineNanos;
        private volatile Call expired;

        /** {@code c} starts now: its deadline is the timeout from now. */
        void begin(Call c) {
            deadlineNanos = System.nanoTime() + timeoutNanos;
            call = c;
        }

        /** The call begun last has ended. */
        void end() {
            call = null;
        }

        /** Whether the watchdog cancelled {@code c} for passing its deadline. */
        boolean expired(Call c) {
            return expired == c;
        }

        void cancelIfLate(long now) {
            Call c = call;
            // the deadline is written before the call, so a deadline read after the call is that call's or a later
            // one's
            if (c != null && now - deadlineNanos > 0 && call == c) {
                expired = c;
                c.cancel(); // a call that has just ended ignores it
            }
        }
    }
}
