package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;

import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;

/**
 * The assignment's single-thread latency test: N requests, one after another, on the calling thread,
 * to measure the mean latency W that Little's law needs. Rides are random over all skiers and the
 * whole day. The requests are real (the server stores them), so read the server's counters after
 * this, not before. Not observed by any {@link AttemptListener}. Static and thread-safe.
 */
public final class Baseline {

    private Baseline() {
    }

    /**
     * What the baseline measured.
     *
     * @param requests         requests asked for
     * @param successful       requests that got a 201
     * @param failed           requests that did not
     * @param attempts         HTTP attempts made
     * @param meanLatencyNanos mean latency of an attempt: the W of Little's law
     * @param wallNanos        the baseline's own duration
     * @param stopped          whether a stop cut it short
     */
    public record Result(int requests, long successful, long failed, long attempts, double meanLatencyNanos,
                         long wallNanos, boolean stopped) {
    }

    /**
     * Sends {@code requests} rides from the calling thread through a fresh sender of {@code senders}.
     *
     * @param stopRequested checked before each request; true ends the baseline early
     */
    public static Result run(RideSenderFactory senders, int requests, int resortId, int seasonId, int dayId,
                             int numSkiers, int numLifts, RetryPolicy retryPolicy, Long seed, BooleanSupplier stopRequested) {
        if (requests < 1) throw new IllegalArgumentException("requests < 1: " + requests);
        if (numSkiers < 1) throw new IllegalArgumentException("numSkiers < 1: " + numSkiers);
        if (numLifts < 1) throw new IllegalArgumentException("numLifts < 1: " + numLifts);
        RandomGenerator random = seed == null ? ThreadLocalRandom.current() : new SplittableRandom(~seed);
        long successful = 0, failed = 0;
        boolean stopped = false;
        long start = System.nanoTime();
        try (RideSender rideSender = senders.create()) {
            RetryingSender sender = new RetryingSender(rideSender, retryPolicy, AttemptRecorder.NONE, stopRequested);
            for (int i = 0; i < requests; i++) {
                if (stopRequested.getAsBoolean()) {
                    stopped = true;
                    break;
                }
                int code = sender.send(resortId, seasonId, dayId, random.nextInt(1, numSkiers + 1),
                        random.nextInt(1, numLifts + 1), random.nextInt(1, 421), random.nextInt(0, 11));
                if (AttemptCodes.isSuccess(code)) successful++; else failed++;
            }
            long wall = System.nanoTime() - start;
            double mean = sender.attempts() == 0 ? Double.NaN : (double) sender.latencyNanosSum() / sender.attempts();
            return new Result(requests, successful, failed, sender.attempts(), mean, wall, stopped);
        }
    }
}
