package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.ServerText;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.random.RandomGenerator;

/**
 * One worker thread's loop and its counts: written only by the worker, readable from any thread while it runs
 * ({@link LiveCounts}), exact after {@code join()}. Runs in a {@link java.util.concurrent.FutureTask} of the
 * {@link Crew}.
 */
final class Worker implements Runnable {

    /** What a GET for unknown data is answered when it succeeds. */
    private static final int NOT_FOUND = 404;

    private final ThreadAssignment assignment;
    private final RideSender rideSender;
    private final RetryingSender sender;
    private final AttemptRecorder recorder;
    private final RideValues ride;
    private final Mix mix;
    private final Long seed;
    private final BooleanSupplier stopRequested;
    private final PhaseTracker tracker;
    /** Open model: this worker's schedule from the time it starts; null in the closed model. */
    private final LongFunction<? extends Timetable> scheduleFrom;

    private final Pacer pacer;
    private final ScheduleLag lag = new ScheduleLag();

    private final LiveCounts counts = new LiveCounts();
    private final FailureCounts causes = new FailureCounts();
    private final OperationCounts operations = new OperationCounts();
    private final WrittenSkiers written = new WrittenSkiers();

    /**
     * What every worker of a run shares.
     *
     * @param mix           the operations to send, or null for rides only
     * @param seed          the run's seed, or null for ThreadLocalRandom
     * @param stopRequested checked before every request
     * @param clock         what the open model paces by
     */
    record Common(RideValues ride, Mix mix, Long seed, BooleanSupplier stopRequested, Pacer.Clock clock) {}

    Worker(
            ThreadAssignment assignment,
            RideSender rideSender,
            RetryingSender sender,
            AttemptRecorder recorder,
            PhaseTracker tracker,
            LongFunction<? extends Timetable> scheduleFrom,
            Common common) {
        this.assignment = assignment;
        this.rideSender = rideSender;
        this.sender = sender;
        this.recorder = recorder;
        this.ride = common.ride();
        this.mix = common.mix();
        this.seed = common.seed();
        this.stopRequested = common.stopRequested();
        this.tracker = tracker;
        this.scheduleFrom = scheduleFrom;
        this.pacer = new Pacer(common.clock());
    }

    /** Sends the assignment's requests; however that ends, closes the recorder and sender, then tells the tracker. */
    @Override
    public void run() {
        try (rideSender;
                recorder) {
            RandomGenerator random =
                    seed == null ? ThreadLocalRandom.current() : new SplittableRandom(seedFor(seed, assignment));
            int skierFrom = assignment.skierFrom();
            int skierBound = assignment.skierTo() + 1;
            int liftBound = ride.numLifts() + 1;
            int minuteFrom = assignment.startMinute();
            int minuteBound = assignment.endMinute() + 1;
            int resortId = ride.resortId();
            int seasonId = ride.seasonId();
            int dayId = ride.dayId();
            Timetable schedule = scheduleFrom == null ? null : scheduleFrom.apply(System.nanoTime());
            for (int i = 0, n = assignment.requests(); i < n; i++) {
                if (stopRequested.getAsBoolean()) {
                    break;
                }
                long intended = AttemptRecorder.UNSCHEDULED;
                if (schedule != null) {
                    intended = schedule.intendedNanos(i);
                    long late = pacer.awaitUntil(intended, stopRequested);
                    if (stopRequested.getAsBoolean()) {
                        break;
                    }
                    lag.record(intended, late);
                }
                Operation op = mix == null ? Operation.WRITE_NEW_LIFT_RIDE : mix.pick(random);
                if (written.isEmpty()) { // a GET before any stored ride reads nothing: write one
                    op = Operation.WRITE_NEW_LIFT_RIDE;
                }
                counts.sent(op);
                long latencyBefore = sender.latencyNanosSum();
                int code;
                int expected;
                boolean unknown = false;
                if (op.writes()) {
                    int skierId = random.nextInt(skierFrom, skierBound);
                    expected = AttemptCodes.SUCCESS;
                    code = sender.send(
                            intended,
                            resortId,
                            seasonId,
                            dayId,
                            skierId,
                            random.nextInt(1, liftBound),
                            random.nextInt(minuteFrom, minuteBound),
                            random.nextInt(0, 11));
                    if (code == expected && mix != null) {
                        written.add(skierId);
                    }
                } else {
                    unknown = mix.unknown(random);
                    expected = unknown ? NOT_FOUND : op.successStatus();
                    int resort = unknown ? Mix.unknownResort(resortId) : resortId;
                    code = sender.get(intended, op, expected, resort, seasonId, dayId, written.pick(random));
                }
                boolean success = code == expected;
                counts.finished(op, success, code, sender.lastAttempts() - 1, sender.lastRequestNanos());
                if (!success) {
                    causes.add(code);
                }
                if (mix != null) {
                    operations.finished(
                            op,
                            success,
                            success && unknown,
                            sender.lastAttempts(),
                            sender.latencyNanosSum() - latencyBefore);
                }
            }
            if (schedule != null && schedule.endNanos().isPresent()) {
                pacer.awaitUntil(schedule.endNanos().getAsLong(), stopRequested);
            }
        } finally {
            tracker.workerFinished(System.nanoTime()); // in finally: a crashed worker never hangs the next phase
        }
    }

    /** A per-thread seed from the run's seed, phase and thread only, so a seeded run sends the same rides. */
    static long seedFor(long seed, ThreadAssignment assignment) {
        long z = seed + 0x9E3779B97F4A7C15L * (((long) assignment.phaseIndex() << 32) + assignment.threadIndex() + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public ThreadAssignment assignment() {
        return assignment;
    }

    /** Requests ended so far; safe from any thread. */
    public long done() {
        return counts.successful() + counts.failed();
    }

    /** Requests failed so far; safe from any thread. */
    public long failedSoFar() {
        return counts.failed();
    }

    public long successful() {
        return counts.successful();
    }

    public long failed() {
        return counts.failed();
    }

    public long retries() {
        return counts.retries();
    }

    /** Adds this worker's counts of {@code op} so far to {@code into}; safe from any thread. */
    void addLiveTo(Operation op, LiveFigures.Sums into) {
        counts.addTo(op, into);
    }

    public long attempts() {
        return sender.attempts();
    }

    public long latencyNanosSum() {
        return sender.latencyNanosSum();
    }

    /** How far behind its schedule this worker fell (empty in the closed model). */
    public ScheduleLag lag() {
        return lag;
    }

    public void addFailuresTo(java.util.Map<Integer, Long> into) {
        causes.addTo(into);
    }

    /** Adds this worker's per-operation account into {@code into} (nothing without a mix); after join. */
    void addOperationsTo(java.util.Map<Operation, OperationStats> into) {
        operations.addTo(into);
    }

    /** Problem lines: {@code crash} and the first sender exception, {@link ServerText} cleaned. */
    public void addProblemsTo(java.util.List<String> into, Throwable crash) {
        String who = assignment.phaseName() + " thread " + assignment.threadIndex();
        if (crash != null) {
            into.add(who + " crashed: " + ServerText.stackTrace(crash));
        }
        RuntimeException e = sender.firstClientError();
        if (e != null) {
            into.add(who + " first client error: " + ServerText.stackTrace(e));
        }
    }
}
