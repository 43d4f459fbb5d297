package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryAfter;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** An in-memory transport for engine tests: answers with a scripted code, records what it was asked. */
final class FakeSenders implements RideSenderFactory {

    /** Decides each attempt's outcome: an HTTP status, or throws an IOException. */
    @FunctionalInterface
    interface Script {
        int answer(int attemptIndex, int skierId) throws IOException;
    }

    /** One sent ride. */
    record Ride(int resortId, int seasonId, int dayId, int skierId, int liftId, int minute, int waitTime) {}

    final List<Ride> rides = new CopyOnWriteArrayList<>();
    /** The Idempotency-Key of every attempt, in the order the attempts were made. */
    final List<String> keys = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    final AtomicInteger attempts = new AtomicInteger();
    final AtomicInteger created = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();
    volatile boolean factoryClosed;
    private final Script script;
    private final long delayNanos;
    private final long retryAfterMillis;

    FakeSenders(Script script, long delayNanos) {
        this(script, delayNanos, RetryAfter.NONE);
    }

    /** Every answer also asks for {@code retryAfterMillis} (a 503's Retry-After; {@link RetryAfter#NONE}: none). */
    FakeSenders(Script script, long delayNanos, long retryAfterMillis) {
        this.script = script;
        this.delayNanos = delayNanos;
        this.retryAfterMillis = retryAfterMillis;
    }

    static FakeSenders always(int status) {
        return new FakeSenders((i, skier) -> status, 0);
    }

    @Override
    public RideSender create() {
        created.incrementAndGet();
        return new RideSender() {
            @Override
            public int send(
                    int resortId,
                    int seasonId,
                    int dayId,
                    int skierId,
                    int liftId,
                    int minute,
                    int waitTime,
                    String rideKey)
                    throws IOException {
                int i = attempts.getAndIncrement();
                rides.add(new Ride(resortId, seasonId, dayId, skierId, liftId, minute, waitTime));
                keys.add(rideKey);
                if (delayNanos > 0) {
                    LockSupport.parkNanos(delayNanos);
                }
                return script.answer(i, skierId);
            }

            @Override
            public long retryAfterMillis() {
                return retryAfterMillis;
            }

            /** Every GET is answered with its operation's success status. */
            @Override
            public int get(Operation op, int resortId, int seasonId, int dayId, int skierId) {
                attempts.getAndIncrement();
                return op.successStatus();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
    }

    @Override
    public void close() {
        factoryClosed = true;
    }
}
