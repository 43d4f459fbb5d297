package io.upic.liftride.client.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's request counts, the run's account and its live view at once: written only by the worker's thread,
 * readable from any thread at any time. Opaque accesses: no tearing and eventual visibility without a fence or a
 * shared cache line on the request path; after the worker is joined they are exact. Allocates nothing per request.
 */
final class LiveCounts {

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private static final int SENT = 0;
    private static final int SUCCESSFUL = 1;
    private static final int FAILED = 2;
    private static final int RETRIES = 3;
    private static final int LATENCY_NANOS = 4;
    private static final int CAUSES = 5;
    private static final int BUCKETS = CAUSES + LiveFigures.Cause.COUNT;

    private final long[] slots = new long[BUCKETS + LiveFigures.LATENCY_BOUNDS_NANOS.length + 1];

    /** A request is about to be sent (its first attempt). */
    void sent() {
        add(SENT, 1);
    }

    /**
     * The request ended with {@code code}, its expected status or not ({@code success}), after {@code retries}
     * retries, {@code latencyNanos} after its intended send time.
     */
    void finished(boolean success, int code, int retries, long latencyNanos) {
        if (success) {
            add(SUCCESSFUL, 1);
        } else {
            add(FAILED, 1);
            add(CAUSES + LiveFigures.Cause.of(code).ordinal(), 1);
        }
        add(RETRIES, retries);
        add(LATENCY_NANOS, latencyNanos);
        add(BUCKETS + LiveFigures.bucketOf(latencyNanos), 1);
    }

    long successful() {
        return get(SUCCESSFUL);
    }

    long failed() {
        return get(FAILED);
    }

    long retries() {
        return get(RETRIES);
    }

    /** Adds these counts into {@code into}, one phase's running total. */
    void addTo(LiveFigures.Sums into) {
        into.add(get(SENT), get(SUCCESSFUL), get(FAILED), get(RETRIES), get(LATENCY_NANOS));
        for (int c = 0; c < LiveFigures.Cause.COUNT; c++) {
            into.failedBy(c, get(CAUSES + c));
        }
        for (int b = BUCKETS; b < slots.length; b++) {
            into.bucket(b - BUCKETS, get(b));
        }
    }

    private void add(int slot, long n) { // one writer: read-add-write needs no atomic instruction
        SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + n);
    }

    private long get(int slot) {
        return (long) SLOT.getOpaque(slots, slot);
    }
}
