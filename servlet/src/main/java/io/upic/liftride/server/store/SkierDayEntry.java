package io.upic.liftride.server.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One skier's day in the in-memory store: its vertical (this AtomicLong) and the idempotency keys of its last
 * {@value #KEY_MINUTES} minutes, at most {@value #MAX_KEYS}, so only rides of the same skier day can push a key
 * out. Keys are kept as 64 bits of a secret-salted SHA-256. Thread-safe: the vertical is atomic, the keys guarded
 * by this.
 */
final class SkierDayEntry extends AtomicLong {
    private static final long serialVersionUID = 1L;

    /** Keys remembered per skier day; a skier rides a lift a few dozen times a day, a retry follows its ride soon. */
    static final int MAX_KEYS = 8;
    /** How long a key is remembered at least: 24 hours. */
    static final long KEY_MINUTES = 24 * 60;

    private static final byte[] SECRET = new SecureRandom().generateSeed(16);
    /** Minutes in 17 bits beside the fingerprint's 46: ages are read modulo 2^17 minutes (91 days). */
    private static final int MINUTE_BITS = 17;

    private static final long MINUTE_MASK = (1L << MINUTE_BITS) - 1;
    /** Digest and fingerprint+minute per key, oldest overwritten first; null until the first keyed ride. */
    private long[] keys;

    private int next;

    /** The 64-bit digest of {@code key} that the entry keeps in its place. */
    static long digest(String key) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(SECRET);
            byte[] hash = sha.digest(key.getBytes(StandardCharsets.UTF_8));
            long digest = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                digest = digest << 8 | (hash[i] & 0xFF);
            }
            return digest;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * Claims the key with {@code digest} for a ride with {@code fingerprint} at {@code nanoTime}: {@link
     * RideOutcome#STORED} when it is new here (the caller then stores the ride), {@link
     * RideOutcome#REPLAYED} when it was claimed with the same ride within the window, else {@link
     * RideOutcome#KEY_REUSED}.
     */
    synchronized RideOutcome claim(long digest, long fingerprint, long nanoTime) {
        long minute = TimeUnit.NANOSECONDS.toMinutes(nanoTime) & MINUTE_MASK;
        if (keys == null) {
            keys = new long[2 * MAX_KEYS];
        }
        for (int i = 0; i < keys.length; i += 2) {
            long packed = keys[i + 1];
            if (packed != 0 && keys[i] == digest && ((minute - (packed & MINUTE_MASK)) & MINUTE_MASK) < KEY_MINUTES) {
                return packed >>> MINUTE_BITS == fingerprint ? RideOutcome.REPLAYED : RideOutcome.KEY_REUSED;
            }
        }
        keys[next] = digest;
        keys[next + 1] = fingerprint << MINUTE_BITS | minute; // never 0: a fingerprint is at least 1
        next = (next + 2) % keys.length;
        return RideOutcome.STORED;
    }
}
