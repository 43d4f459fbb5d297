package io.upic.liftride.client.prediction;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.engine.RetryingSender;
import io.upic.liftride.client.engine.RideKeys;
import io.upic.liftride.client.engine.RideValues;
import io.upic.liftride.client.engine.SilentServerDetector;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.jvm.ProcessCpu;
import io.upic.liftride.client.plan.PhasePlan;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;
import lombok.Builder;

/**
 * The single-thread latency test: after an unmeasured warm-up as long, N requests one after another on the
 * calling thread (for at most {@link #PART_LIMIT_NANOS} once {@link #PART_MIN_REQUESTS} are sent) measure the
 * mean latency W and a cold JVM's CPU per request. The requests are real, so read the server's counters after
 * this. Not observed by any {@link AttemptListener}. Static and thread-safe.
 */
public final class Baseline {

    /** Each part, warm-up and measured, ends after its requests or this long, whichever comes first... */
    public static final long PART_LIMIT_NANOS = 1_200_000_000L;

    /** ...but not before this many requests: over a slow network a few dozen leave the JVM cold. */
    static final int PART_MIN_REQUESTS = 200;

    private Baseline() {}

    /**
     * What the baseline measured. Counts, latency, wall and CPU time cover the measured part only.
     *
     * @param requests         measured requests asked for (fewer are sent when the part reaches its time limit)
     * @param successful       measured requests that got a 201
     * @param failed           measured requests that did not
     * @param attempts         HTTP attempts of the measured part
     * @param meanLatencyNanos mean latency of an attempt: the W of Little's law
     * @param wallNanos        the measured part's duration
     * @param stopped          whether a stop cut it short (warm-up or measured part)
     * @param warmupRequests   warm-up requests sent before the measured part (0 if none)
     * @param cpuNanos         CPU time of this whole process during the measured part, or -1 if unknown
     * @param cpuLessJitNanos CPU time of this process less its JIT compiler threads' during the measured part, or -1
     *                         if unknown: the compiler threads are still busy after a short warm-up
     */
    @Builder(toBuilder = true)
    public record Result(
            int requests,
            long successful,
            long failed,
            long attempts,
            double meanLatencyNanos,
            long wallNanos,
            boolean stopped,
            long warmupRequests,
            long cpuNanos,
            long cpuLessJitNanos) {

        /** D of a cold JVM: CPU per request less the JIT compiler threads' when known, else the whole process's. */
        public double coldCpuNanosPerRequest() {
            long done = successful + failed;
            return cpuLessJitNanos > 0 && done > 0 ? (double) cpuLessJitNanos / done : cpuNanosPerRequest();
        }

        /** D: process CPU nanoseconds per measured request, or NaN if unknown. */
        public double cpuNanosPerRequest() {
            long done = successful + failed;
            return cpuNanos < 0 || done == 0 ? Double.NaN : (double) cpuNanos / done;
        }
    }

    /**
     * What a baseline sends.
     *
     * @param requests    warm-up requests, and as many measured ones
     * @param ride        the ride values of every request
     * @param skiers      skierIDs are drawn from 1..skiers
     * @param retryPolicy as the run's
     * @param seed        the run's seed (the baseline draws from its complement), or null
     */
    public record Spec(int requests, RideValues ride, int skiers, RetryPolicy retryPolicy, Long seed) {}

    /**
     * Sends the warm-up, then the measured rides, from the calling thread through one fresh sender; a silent
     * server ends it {@code stopped}.
     *
     * @param stopRequested checked before each request; true ends the baseline early
     */
    public static Result run(
            RideSenderFactory senders, Spec spec, BooleanSupplier stopRequested, SilentServerDetector silentServer) {
        int requests = spec.requests();
        if (requests < 1) {
            throw new IllegalArgumentException("baselineRequests < 1: " + requests);
        }
        BooleanSupplier stop = () -> stopRequested.getAsBoolean() || silentServer.gaveUp();
        Long seed = spec.seed();
        RandomGenerator random = seed == null ? ThreadLocalRandom.current() : new SplittableRandom(~seed);
        try (RideSender rideSender = senders.create()) {
            RetryingSender sender = new RetryingSender(
                    rideSender,
                    spec.retryPolicy(),
                    AttemptRecorder.NONE,
                    stopRequested,
                    silentServer,
                    new RideKeys(RideKeys.newRunId(), "baseline"));
            IntSupplier sendOne = () -> send(sender, random, spec);
            Part w = part(requests, stop, sendOne); // the warm-up
            long attemptsBefore = sender.attempts();
            long latencyBefore = sender.latencyNanosSum();
            long jitBefore = ProcessCpu.jitCompilerNanos();
            long cpuBefore = ProcessCpu.nanos();
            long start = System.nanoTime();
            Part m = w.stopped() ? new Part(0, 0, true) : part(requests, stop, sendOne);
            long wall = System.nanoTime() - start;
            long cpuAfter = ProcessCpu.nanos();
            long jit = ProcessCpu.jitCompilerNanos() - jitBefore;
            long attempts = sender.attempts() - attemptsBefore;
            double mean = attempts == 0 ? Double.NaN : (double) (sender.latencyNanosSum() - latencyBefore) / attempts;
            long cpu = cpuBefore < 0 || cpuAfter < 0 ? -1 : cpuAfter - cpuBefore;
            long lessJit = cpu < 0 ? -1 : Math.max(0, cpu - jit);
            long ok = m.successful();
            return new Result(requests, ok, m.sent() - ok, attempts, mean, wall, m.stopped(), w.sent(), cpu, lessJit);
        }
    }

    /** What one part (warm-up or measured) did: rides sent, of them successful, and whether a stop ended it. */
    private record Part(long sent, long successful, boolean stopped) {}

    /** Sends up to {@code requests} rides, for at most {@link #PART_LIMIT_NANOS} past {@link #PART_MIN_REQUESTS}. */
    private static Part part(int requests, BooleanSupplier stop, IntSupplier send) {
        long end = System.nanoTime() + PART_LIMIT_NANOS;
        long sent = 0, successful = 0;
        for (; sent < requests && (sent < PART_MIN_REQUESTS || System.nanoTime() - end < 0); sent++) {
            if (stop.getAsBoolean()) {
                return new Part(sent, successful, true);
            }
            successful += AttemptCodes.isSuccess(send.getAsInt()) ? 1 : 0;
        }
        return new Part(sent, successful, false);
    }

    /** One random ride of {@code spec} through {@code sender}; its last attempt's code. */
    static int send(RetryingSender sender, RandomGenerator random, Spec spec) {
        RideValues ride = spec.ride();
        return sender.send(
                ride.resortId(),
                ride.seasonId(),
                ride.dayId(),
                random.nextInt(1, spec.skiers() + 1),
                random.nextInt(1, ride.numLifts() + 1),
                random.nextInt(1, PhasePlan.DAY_MINUTES + 1),
                random.nextInt(0, 11));
    }
}
