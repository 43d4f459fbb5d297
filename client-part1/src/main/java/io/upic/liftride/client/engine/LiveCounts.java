package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's request counts per {@link Operation}, written only by its thread and readable from any thread with
 * opaque accesses (no fence on the request path); exact after the worker is joined. Allocates nothing per request.
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
    /** Slots of one operation; operation {@code o}'s start at {@code o * PER_OPERATION}. */
    private static final int PER_OPERATION = BUCKETS + LiveFigures.LATENCY_BOUNDS_NANOS.length + 1;

    private static final Operation[] OPERATIONS = Operation.values();

    private final long[] slots = new long[OPERATIONS.length * PER_OPERATION];

    /** A request of {@code op} is about to be sent (its first attempt). */
    void sent(Operation op) {
        add(op, SENT, 1);
    }

    /**
     * The request of {@code op} ended with {@code code}, its expected status or not ({@code success}), after
     * {@code retries} retries, {@code latencyNanos} after its intended send time.
     */
    void finished(Operation op, boolean success, int code, int retries, long latencyNanos) {
        if (success) {
            add(op, SUCCESSFUL, 1);
        } else {
            add(op, FAILED, 1);
            add(op, CAUSES + LiveFigures.Cause.of(code).ordinal(), 1);
        }
        add(op, RETRIES, retries);
        add(op, LATENCY_NANOS, latencyNanos);
        add(op, BUCKETS + LiveFigures.bucketOf(latencyNanos), 1);
    }

    long successful() {
        return total(SUCCESSFUL);
    }

    long failed() {
        return total(FAILED);
    }

    long retries() {
        return total(RETRIES);
    }

    /** Adds {@code op}'s counts into {@code into}, one phase's running total of that operation. */
    void addTo(Operation op, LiveFigures.Sums into) {
        into.add(get(op, SENT), get(op, SUCCESSFUL), get(op, FAILED), get(op, RETRIES), get(op, LATENCY_NANOS));
        for (int c = 0; c < LiveFigures.Cause.COUNT; c++) {
            into.failedBy(c, get(op, CAUSES + c));
        }
        for (int b = BUCKETS; b < PER_OPERATION; b++) {
            into.bucket(b - BUCKETS, get(op, b));
        }
    }

    private void add(Operation op, int slot, long n) { // one writer: read-add-write needs no atomic instruction
        int i = op.ordinal() * PER_OPERATION + slot;
        SLOT.setOpaque(slots, i, (long) SLOT.getOpaque(slots, i) + n);
    }

    private long get(Operation op, int slot) {
        return (long) SLOT.getOpaque(slots, op.ordinal() * PER_OPERATION + slot);
    }

    private long total(int slot) {
        long sum = 0;
        for (Operation op : OPERATIONS) {
            sum += get(op, slot);
        }
        return sum;
    }
}
