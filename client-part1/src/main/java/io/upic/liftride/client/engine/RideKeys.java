package io.upic.liftride.client.engine;

import java.security.SecureRandom;

/**
 * The {@code Idempotency-Key}s one sender gives its rides, {@code RUN-SENDER-N} with RUN 64 random bits per run;
 * a ride keeps its key on every retry, so the server replays a stored ride's 201. One per sender; not thread-safe.
 */
public final class RideKeys {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;
    private long rides;

    /**
     * @param runId the run's {@link #newRunId()}
     * @param sender this sender's name within the run, e.g. {@code 1.17} for phase 1, thread 17
     */
    public RideKeys(String runId, String sender) {
        this.prefix = runId + "-" + sender + "-";
    }

    /** 16 hex digits of fresh randomness: one per run. */
    public static String newRunId() {
        return String.format("%016x", RANDOM.nextLong());
    }

    /** The key of the sender's next ride. */
    String next() {
        return prefix + rides++;
    }
}
