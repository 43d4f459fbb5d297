package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.store.RideOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One ride waiting for its batch: what the store must write, and its outcome. The request thread
 * and the committer race for it through {@link #claim(long)} and {@link #abandon()}: exactly one wins,
 * so a ride whose request already answered 503 is never sent. Thread-safe.
 */
final class PendingRide {
    private static final int QUEUED = 0;
    private static final int SENT = 1;
    private static final int ABANDONED = 2;

    final String tag;
    final int day;
    final int skier;
    final int vertical;
    /** The Idempotency-Key, or "" for none. */
    final String key;

    final long fingerprint;
    /** Who sent it, or "" for none (counted against the limits only). */
    final String client;

    final CompletableFuture<RideOutcome> outcome = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(QUEUED);
    /** When the committer claimed it ({@link System#nanoTime()}); read only after {@link #claim} won. */
    volatile long claimedAtNanos;
    /** When its request queued it ({@link System#nanoTime()}); set before the queue publishes it. */
    long queuedAtNanos;

    PendingRide(String tag, int day, int skier, int vertical, String key, long fingerprint, String client) {
        this.tag = tag;
        this.day = day;
        this.skier = skier;
        this.vertical = vertical;
        this.key = key == null ? "" : key;
        this.fingerprint = fingerprint;
        this.client = client == null ? "" : client;
    }

    /** The ride's resort, season, day and skier. */
    SkierDay where() {
        return new SkierDay(RedisKeys.resortOf(tag), RedisKeys.seasonOf(tag), day, skier);
    }

    /** Takes the ride into a batch at {@code nowNanos} (no later than its deadline's start); false if abandoned. */
    boolean claim(long nowNanos) {
        claimedAtNanos = nowNanos; // written before the state, so a request that sees SENT sees it
        return state.compareAndSet(QUEUED, SENT);
    }

    /** Whether the committer has claimed it: its batch is sent, or about to be. */
    boolean sent() {
        return state.get() == SENT;
    }

    /** The request gives up on a ride still queued; false if it was already sent. */
    boolean abandon() {
        return state.compareAndSet(QUEUED, ABANDONED);
    }
}
