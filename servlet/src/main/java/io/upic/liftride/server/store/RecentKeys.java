package io.upic.liftride.server.store;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The idempotency keys the in-memory store has applied, each with its ride's fingerprint, kept for
 * {@code ttl}, at most {@code maxKeys} of them and at most {@code maxBytes} of heap by {@link
 * #bytesOf} (the oldest are forgotten first, so memory stays bounded whatever the keys' lengths).
 * Thread-safe; {@link #claim} is atomic per key, and {@link #release} takes back a claim whose ride
 * could not be stored, so that its retry stores it instead of replaying it.
 */
final class RecentKeys {
    /** What {@link #claim} found. */
    enum Claim {
        NEW,
        SAME_RIDE,
        OTHER_RIDE
    }

    /**
     * Heap bytes one remembered key costs besides its characters, on a 64-bit JVM with compressed
     * pointers: the String (24) and its byte array header (16), the map's node (32) and table slot (8),
     * the entry (24), the queue's node (24): 128, rounded up for padding.
     */
    static final int OVERHEAD_BYTES = 136;

    /** One claim; compared by identity, which tells a claim from a later claim of the same key. */
    private static final class Entry {
        final String key;
        final long fingerprint;
        final long expiresAtNanos;

        Entry(String key, long fingerprint, long expiresAtNanos) {
            this.key = key;
            this.fingerprint = fingerprint;
            this.expiresAtNanos = expiresAtNanos;
        }
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    /** Claims in order, including released ones (still counted until they leave the queue). */
    private final ConcurrentLinkedQueue<Entry> order = new ConcurrentLinkedQueue<>();

    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final long ttlNanos;
    private final int maxKeys;
    private final long maxBytes;
    private final LongSupplier nanoClock;

    RecentKeys(Duration ttl, int maxKeys, long maxBytes, LongSupplier nanoClock) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl <= 0: " + ttl);
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys < 1: " + maxKeys);
        }
        if (maxBytes < OVERHEAD_BYTES) {
            throw new IllegalArgumentException("maxBytes < " + OVERHEAD_BYTES + ": " + maxBytes);
        }
        this.ttlNanos = ttl.toNanos();
        this.maxKeys = maxKeys;
        this.maxBytes = maxBytes;
        this.nanoClock = nanoClock;
    }

    /** What a key costs in the heap, by the estimate the byte limit counts (Latin-1 strings). */
    static int bytesOf(String key) {
        return OVERHEAD_BYTES + (key.length() + 7) / 8 * 8;
    }

    /** Records {@code key} with {@code fingerprint} unless it is already there; says which it was. */
    Claim claim(String key, long fingerprint) {
        long now = nanoClock.getAsLong();
        forgetExpired(now);
        Entry entry = new Entry(key, fingerprint, now + ttlNanos);
        Entry seen = entries.putIfAbsent(key, entry);
        if (seen != null) {
            return seen.fingerprint == fingerprint ? Claim.SAME_RIDE : Claim.OTHER_RIDE;
        }
        order.add(entry);
        size.incrementAndGet();
        bytes.addAndGet(bytesOf(key));
        while (size.get() > maxKeys || bytes.get() > maxBytes) {
            if (!forgetOldest()) {
                break;
            }
        }
        return Claim.NEW;
    }

    /**
     * Forgets the claim {@link #claim} made for {@code key} with {@code fingerprint}: its ride was not
     * stored. A later claim of the same key (after this one expired) is left alone.
     */
    void release(String key, long fingerprint) {
        Entry entry = entries.get(key);
        if (entry != null && entry.fingerprint == fingerprint) {
            entries.remove(key, entry); // its queue element stays counted until it leaves the queue
        }
    }

    /** Keys remembered or released but not yet out of the queue; what the count limit bounds. */
    int size() {
        return size.get();
    }

    /** The estimated heap bytes of {@link #size} keys; what the byte limit bounds. */
    long bytes() {
        return bytes.get();
    }

    private void forgetExpired(long now) {
        for (Entry head; (head = order.peek()) != null && head.expiresAtNanos - now <= 0; ) {
            if (order.remove(head)) {
                forget(head);
            }
        }
    }

    private boolean forgetOldest() {
        Entry head = order.poll();
        if (head == null) {
            return false;
        }
        forget(head);
        return true;
    }

    private void forget(Entry entry) {
        entries.remove(entry.key, entry); // only this claim, not a newer one of the same key
        size.decrementAndGet();
        bytes.addAndGet(-bytesOf(entry.key));
    }
}
