package io.upic.liftride.server.store.redis;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Turns a {@link System#nanoTime()} instant of this JVM into the Redis server's clock (microseconds
 * since the epoch, as {@code TIME} answers), so a batch can carry a deadline Redis checks itself. It
 * asks Redis for the time when it has not for {@value #RESYNC_SECONDS} s, and takes the middle of
 * the round trip as the moment of the answer; its error is half a round trip, which the caller's
 * margin covers. Thread-safe (the committers share it).
 */
final class RedisClock {
    static final long RESYNC_SECONDS = 10;
    private static final long RESYNC_NANOS = TimeUnit.SECONDS.toNanos(RESYNC_SECONDS);

    private final LongSupplier redisTimeMicros;
    private long syncedAtNanos;
    private long redisMicrosAtSync;
    private boolean synced;

    RedisClock(LongSupplier redisTimeMicros) {
        this.redisTimeMicros = redisTimeMicros;
    }

    /** Redis's clock at {@code nanoTime}; asks Redis first when the last answer is stale. */
    synchronized long redisMicrosAt(long nanoTime) {
        long now = System.nanoTime();
        if (!synced || now - syncedAtNanos > RESYNC_NANOS) {
            long before = System.nanoTime();
            long redisMicros = redisTimeMicros.getAsLong();
            long after = System.nanoTime();
            syncedAtNanos = before + (after - before) / 2;
            redisMicrosAtSync = redisMicros;
            synced = true;
        }
        return redisMicrosAtSync + (nanoTime - syncedAtNanos) / 1_000L;
    }
}
