package io.upic.liftride.server.store;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The idempotency keys the in-memory store has applied, each with its ride's fingerprint, kept for
 * {@code ttl} and at most {@code maxKeys} of them (the oldest are forgotten first, so memory stays
 * bounded: about 150 bytes a key). Thread-safe; {@link #claim} is atomic per key.
 */
final class RecentKeys {
    /** What {@link #claim} found. */
    enum Claim {
        NEW,
        SAME_RIDE,
        OTHER_RIDE
    }

    private record Expiry(String key, long expiresAtNanos) {}

    private final ConcurrentHashMap<String, Long> fingerprints = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Expiry> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final long ttlNanos;
    private final int maxKeys;
    private final LongSupplier nanoClock;

    RecentKeys(Duration ttl, int maxKeys, LongSupplier nanoClock) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl <= 0: " + ttl);
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys < 1: " + maxKeys);
        }
        this.ttlNanos = ttl.toNanos();
        this.maxKeys = maxKeys;
        this.nanoClock = nanoClock;
    }

    /** Records {@code key} with {@code fingerprint} unless it is already there; says which it was. */
    Claim claim(String key, long fingerprint) {
        long now = nanoClock.getAsLong();
        forgetExpired(now);
        Long seen = fingerprints.putIfAbsent(key, fingerprint);
        if (seen != null) {
            return seen == fingerprint ? Claim.SAME_RIDE : Claim.OTHER_RIDE;
        }
        order.add(new Expiry(key, now + ttlNanos));
        if (size.incrementAndGet() > maxKeys) {
            forgetOldest();
        }
        return Claim.NEW;
    }

    int size() {
        return size.get();
    }

    private void forgetExpired(long now) {
        for (Expiry head; (head = order.peek()) != null && head.expiresAtNanos - now <= 0; ) {
            if (order.remove(head)) {
                fingerprints.remove(head.key);
                size.decrementAndGet();
            }
        }
    }

    private void forgetOldest() {
        Expiry head = order.poll();
        if (head != null) {
            fingerprints.remove(head.key);
            size.decrementAndGet();
        }
    }
}
