package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.compare.RunComparison;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.metrics.HistogramMetrics;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * Joins the shards of one run from their records only ({@link RunRecord}: summary and histogram logs) into a
 * {@link MergedRun}, after checking they are the parts of one plan. Static and thread-safe. Refused in one line:
 * different plan inputs or N, a K twice, a log that does not count its summary's attempts (all, first, each
 * operation), or a missing shard without {@code allowMissing}. Counts and histograms add; mean and max combine
 * exactly, percentiles come from the added histograms. The clock is the wall clock: a shard's bucket adds into the
 * merged bucket holding its middle.
 */
public final class ShardMerge {

    /** The {@code client} value of a merged summary. */
    public static final String CLIENT = "client-part2 merge";

    private ShardMerge() {}

    /**
     * Merges {@code shards} (the run folders called {@code name} of every shard) and checks {@code thresholds} on
     * the merged numbers.
     *
     * @throws MergeRefusedException when they are not the parts of one plan (see the class comment)
     */
    public static MergedRun merge(String name, List<RunRecord> shards, boolean allowMissing, List<Threshold> thresholds)
            throws MergeRefusedException {
        List<RunRecord> sorted = new ArrayList<>(shards);
        sorted.sort(Comparator.comparingInt(RunRecord::index));
        List<Integer> missing = check(name, sorted, allowMissing);
        long origin =
                sorted.stream().mapToLong(RunRecord::startEpochMillis).min().orElseThrow();
        RunSummary ref = sorted.get(0).summary();
        List<PhaseResult> phases = new ArrayList<>();
        List<ScopeStats> phaseStats = new ArrayList<>();
        for (int k = 0; k < ref.phases().size(); k++) {
            joinPhase(k, sorted, origin, phases, phaseStats);
        }
        Latencies run = new Latencies();
        TimeBuckets buckets = new TimeBuckets();
        buckets.setOrigin(0);
        for (RunRecord s : sorted) {
            RunSummary r = s.summary();
            run.add(s, "", r.latencyMs(), HdrLog.FIRST, HdrLog.INTENDED, r.latencyFromIntendedMs());
            s.addBuckets(origin, buckets);
        }
        Map<Operation, RunMetrics.OperationLatency> opLatencies = new EnumMap<>(Operation.class);
        RunResult result = result(sorted, origin, phases, run, joinOperations(name, sorted, opLatencies));
        RunMetrics metrics = new RunMetrics(
                run.scope("run", -1, ref.threads(), true, result.wallNanos(), result.requests()),
                phaseStats,
                opLatencies);
        ThresholdCheck check = ThresholdCheck.of(thresholds, new HistogramMetrics(metrics, result));
        return new MergedRun(
                name,
                sorted,
                missing,
                result,
                metrics,
                buckets,
                check,
                summary(sorted, missing, result, metrics, check));
    }

    /** The K of N not given; refuses shards of unlike plans, of another N, a K twice, or a log off its summary. */
    private static List<Integer> check(String name, List<RunRecord> sorted, boolean allowMissing)
            throws MergeRefusedException {
        RunRecord ref = sorted.get(0);
        for (int i = 0; i < sorted.size(); i++) {
            RunRecord s = sorted.get(i);
            String refused = null;
            if (!planIdentity(s.summary()).equals(planIdentity(ref.summary()))) {
                refused = " ran " + planIdentity(s.summary()) + " but " + ref.source() + " ran "
                        + planIdentity(ref.summary());
            } else if (s.count() != ref.count()) {
                refused = " is shard " + s.label() + " but " + ref.source() + " is shard " + ref.label();
            } else if (s.summary().phases().size() != ref.summary().phases().size()) {
                refused = " has " + s.summary().phases().size() + " phases, " + ref.source() + " has "
                        + ref.summary().phases().size();
            } else if (i > 0 && s.index() == sorted.get(i - 1).index()) {
                throw new MergeRefusedException("cannot merge " + name + ": shard " + s.label() + " given twice ("
                        + sorted.get(i - 1).source() + " and " + s.source() + ")");
            }
            if (refused != null) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.source() + refused);
            }
        }
        int n = ref.count();
        List<Integer> missing = IntStream.rangeClosed(1, n)
                .filter(k -> sorted.stream().noneMatch(s -> s.index() == k))
                .boxed()
                .toList();
        if (!missing.isEmpty() && !allowMissing) {
            List<String> labels = missing.stream().map(k -> k + "/" + n).toList();
            throw new MergeRefusedException("cannot merge " + name + ": shards " + String.join(", ", labels)
                    + " missing (" + sorted.size() + " of " + n + " given); their requests would be missing from the"
                    + " totals. Pass --allow-missing to merge the shards there are");
        }
        for (RunRecord s : sorted) {
            Requests q = s.requests();
            checkLog(name, s, "", q.attempts());
            checkLog(name, s, HdrLog.FIRST, q.attempts() - q.retries());
            for (RunSummary.OperationRow row : operations(s.summary())) {
                checkLog(name, s, HdrLog.OPERATION_PREFIX + row.operation(), row.attempts());
            }
        }
        return missing;
    }

    private static void checkLog(String name, RunRecord s, String tag, long count) throws MergeRefusedException {
        long logged = count(s.histogram(tag));
        if (logged != count) {
            throw new MergeRefusedException("cannot merge " + name + ": " + s.source() + "/" + HdrLog.FILE + " holds "
                    + logged + " latencies" + (tag.isEmpty() ? "" : " tagged " + tag) + " but " + SummaryJson.FILE
                    + " counts " + count + " (files from different runs?)");
        }
    }

    /** The plan as a merge compares it: everything that must be equal for shards to add up to one plan. */
    static String planIdentity(RunSummary s) {
        String mix = s.operations() == null ? "" : " --mix " + RunComparison.mix(s);
        String ramp = s.ramp() == null ? "" : " --ramp " + s.ramp().spec();
        return String.format(
                Locale.ROOT,
                "plan %s -t %d -s %d -l %d -m %d%s%s (resort %d, season %d, day %d)",
                s.plan(),
                s.threads(),
                s.skiers(),
                s.lifts(),
                s.meanRuns(),
                mix,
                ramp,
                s.resort(),
                s.season(),
                s.day());
    }

    private static List<RunSummary.OperationRow> operations(RunSummary s) {
        return Objects.requireNonNullElse(s.operations(), List.of());
    }

    private static long count(Histogram h) {
        return h == null ? 0 : h.getTotalCount();
    }

    /** The total account: counts added, failures by cause added, from the first start to the last end. */
    private static RunResult result(
            List<RunRecord> shards,
            long origin,
            List<PhaseResult> phases,
            Latencies run,
            Map<Operation, OperationStats> operations) {
        Requests requests = Requests.NONE;
        boolean stopped = false;
        long endNanos = 0;
        Map<Integer, Long> causes = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (RunRecord s : shards) {
            RunSummary r = s.summary();
            requests = requests.plus(s.requests());
            stopped |= r.stopped();
            endNanos = Math.max(endNanos, (s.startEpochMillis() - origin) * 1_000_000 + s.wallNanos());
            r.failuresByCause().forEach((code, count) -> causes.merge(code, count, Long::sum));
            if (r.stopped() && r.abort() == null) { // an abort is the merged run's, not a problem
                problems.add("shard " + s.label() + " (" + s.source() + ") was stopped early");
            }
        }
        return RunResult.builder()
                .planName(shards.get(0).summary().plan())
                .numThreads(shards.get(0).summary().threads())
                .phases(phases)
                .requests(requests)
                .latencyNanosSum(run.latencyNanosSum())
                .failuresByCause(causes)
                .startEpochMillis(origin)
                .startNanos(0)
                .wallNanos(endNanos)
                .stopped(stopped)
                .problems(problems)
                .operations(operations)
                .build();
    }

    /** The shards' operations' counts joined, and their histograms into {@code latencies}. */
    private static Map<Operation, OperationStats> joinOperations(
            String name, List<RunRecord> shards, Map<Operation, RunMetrics.OperationLatency> latencies)
            throws MergeRefusedException {
        Map<Operation, OperationStats> counts = new EnumMap<>(Operation.class);
        Map<Operation, Scope> logged = new EnumMap<>(Operation.class);
        for (RunRecord s : shards) {
            for (RunSummary.OperationRow row : operations(s.summary())) {
                Operation op;
                try {
                    op = Operation.of(row.operation());
                } catch (IllegalArgumentException e) {
                    throw new MergeRefusedException("cannot merge " + name + ": " + s.source() + ": " + e.getMessage());
                }
                Double mean = row.latencyMs().mean();
                long nanosSum = mean == null ? 0 : Math.round(mean * 1e6 * row.attempts());
                counts.merge(
                        op,
                        new OperationStats(
                                op, row.requests(), row.successful(), row.notFound(), row.attempts(), nanosSum),
                        OperationStats::plus);
                logged.computeIfAbsent(op, k -> new Scope()).add(s.histogram(HdrLog.operationTag(op)), row.latencyMs());
            }
        }
        logged.forEach((op, l) -> {
            if (l.count > 0) {
                latencies.put(op, new RunMetrics.OperationLatency(l.h, l.stats()));
            }
        });
        return counts;
    }

    /** Phase {@code k} of every shard joined: its account to {@code phases}, its statistics to {@code stats}. */
    private static void joinPhase(
            int k, List<RunRecord> shards, long origin, List<PhaseResult> phases, List<ScopeStats> stats) {
        String phaseName = shards.get(0).summary().phases().get(k).name();
        int threads = 0;
        Requests requests = Requests.NONE;
        long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
        Latencies latencies = new Latencies();
        for (RunRecord s : shards) {
            RunSummary.Phase p = s.summary().phases().get(k);
            Histogram all = s.histogram(HdrLog.tag(phaseName));
            Histogram first = s.histogram(HdrLog.firstTag(phaseName));
            long attempts = count(all);
            threads += p.threads();
            long notSent = p.requests() - p.successful() - p.failed();
            requests = requests.plus(
                    new Requests(p.requests(), p.successful(), p.failed(), notSent, attempts - count(first), attempts));
            latencies.add(
                    s,
                    HdrLog.tag(phaseName),
                    p.latencyMs(),
                    HdrLog.firstTag(phaseName),
                    HdrLog.intendedTag(phaseName),
                    p.latencyFromIntendedMs());
            if (all != null) { // the log holds the phases that started, timed from their start to their end
                start = Math.min(start, all.getStartTimeStamp());
                end = Math.max(end, all.getEndTimeStamp());
            }
        }
        boolean started = start != Long.MAX_VALUE;
        PhaseResult pr = PhaseResult.builder()
                .index(k)
                .name(phaseName)
                .threads(threads)
                .requests(requests)
                .latencyNanosSum(latencies.latencyNanosSum())
                .failuresByCause(Map.of()) // a shard keeps failures by cause for its whole run only
                .started(started)
                .startEpochMillis(started ? start : 0)
                .startNanos(started ? (start - origin) * 1_000_000 : 0)
                .endEpochMillis(started ? end : 0)
                .endNanos(started ? (end - origin) * 1_000_000 : 0)
                .build();
        phases.add(pr);
        stats.add(latencies.scope(phaseName, k, threads, started, pr.durationNanos(), requests));
    }

    /** The summary.json of a merge: the merged numbers, each shard's own in {@code shards}. */
    private static RunSummary summary(
            List<RunRecord> shards, List<Integer> missing, RunResult r, RunMetrics metrics, ThresholdCheck check) {
        RunSummary id = shards.get(0).summary();
        HistogramMetrics source = new HistogramMetrics(metrics, r);
        RunSummary.Aborted abort = abort(shards, r.startEpochMillis());
        RunSummary.Server server = server(shards, r);
        List<String> problems = new ArrayList<>(r.problems());
        if (!missing.isEmpty()) {
            problems.add(
                    "partial merge: shards " + missing + " of " + shards.get(0).count() + " were not given");
        }
        boolean requestsOk = abort == null
                ? r.ok()
                : r.requests().failed() == 0 && r.problems().isEmpty();
        Map<Operation, Integer> weights = new EnumMap<>(Operation.class);
        if (id.operations() != null) {
            id.operations().forEach(o -> weights.put(Operation.of(o.operation()), o.weight()));
        }
        return id.toBuilder() // the plan's inputs as the shards ran them; what is one shard's goes
                .schemaVersion(RunSummary.SCHEMA_VERSION)
                .client(CLIENT)
                .shard(null)
                .seed(null)
                .prediction(null)
                .startTime(Instant.ofEpochMilli(r.startEpochMillis()).toString())
                .endTime(Instant.ofEpochMilli(r.startEpochMillis() + r.wallNanos() / 1_000_000)
                        .toString())
                .failuresByCause(r.failuresByCause())
                .transport(String.join(
                        "+",
                        new TreeSet<>(shards.stream()
                                .map(s -> s.summary().transport())
                                .toList())))
                .requests(r.requests())
                .wallSeconds(r.wallNanos() / 1e9)
                .throughput(r.throughputPerSecond())
                .stopped(r.stopped())
                .ok(requestsOk && missing.isEmpty() && !Boolean.FALSE.equals(server.reconciled()))
                .phases(RunSummary.phases(r, source))
                .latencyMs(metrics.run().all())
                .latencyFirstMs(metrics.run().first())
                .latencyFromIntendedMs(metrics.run().fromIntended())
                .thresholds(check.results().stream()
                        .map(RunSummary.ThresholdOutcome::of)
                        .toList())
                .thresholdsPassed(check.passed())
                .server(server)
                .problems(problems)
                .shards(shards.stream().map(ShardMerge::part).toList())
                .ramp(ramp(shards))
                .abort(abort)
                .operations(id.operations() == null ? null : RunSummary.OperationRow.of(new Mix(weights, 0), r, source))
                .build();
    }

    private static RunSummary.ShardPart part(RunRecord s) {
        RunSummary r = s.summary();
        return new RunSummary.ShardPart(
                s.label(),
                s.source().toString(),
                r.startTime(),
                r.wallSeconds(),
                r.planned(),
                r.successful(),
                r.failed(),
                r.notSent(),
                r.retries(),
                r.throughput(),
                r.latencyMs());
    }

    /** The first shard's abort, timed from the merged start; null when none aborted. */
    private static RunSummary.Aborted abort(List<RunRecord> shards, long origin) {
        return shards.stream()
                .filter(s -> s.summary().abort() != null)
                .min(Comparator.comparing(s -> Instant.parse(s.summary().abort().time())))
                .map(s -> {
                    RunSummary.Aborted a = s.summary().abort();
                    double after = (s.startEpochMillis() - origin) / 1e3 + a.afterSeconds();
                    return new RunSummary.Aborted(a.threshold(), a.reason(), a.time(), after, s.label());
                })
                .orElse(null);
    }

    /** The server's count: lowest before, highest after; unchecked if a shard did not read it. */
    private static RunSummary.Server server(List<RunRecord> shards, RunResult r) {
        long before = Long.MAX_VALUE, after = Long.MIN_VALUE;
        for (RunRecord s : shards) {
            RunSummary.Server server = s.summary().server();
            if (server.ridesStoredBefore() == null || server.ridesStoredAfter() == null) {
                return new RunSummary.Server(false, null, null, null, null, "not every shard read the server's count");
            }
            before = Math.min(before, server.ridesStoredBefore());
            after = Math.max(after, server.ridesStoredAfter());
        }
        long delta = after - before;
        return new RunSummary.Server(true, before, after, delta, delta == r.successfulWrites(), null);
    }

    /**
     * The {@code --ramp} stages: offered and achieved rates added over the shards, the send lag's mean weighted by
     * each shard's sends, its max the largest, late sends added, and whether offered in full judged on those sums
     * by the single run's rule. A shard that never started a stage offered it and achieved nothing of it.
     */
    private static RunSummary.RampOutcome ramp(List<RunRecord> shards) {
        RunSummary.RampOutcome ref = shards.get(0).summary().ramp();
        if (ref == null) {
            return null;
        }
        List<RampStages.Stage> stages = new ArrayList<>(ref.stages().size());
        for (int k = 0; k < ref.stages().size(); k++) {
            RampStages.Stage st0 = ref.stages().get(k);
            double offered = 0, achieved = 0, lagMillisSum = 0, lagMaxMs = 0;
            long sends = 0, late = 0;
            boolean started = false;
            for (RunRecord s : shards) {
                RampStages.Stage st = s.summary().ramp().stages().get(k);
                RunSummary.Phase p = s.summary().phases().get(k);
                offered += st.offeredPerSecond();
                if (p.durationSeconds() > 0) { // a stage that never started lasted 0 s
                    long sent = p.successful() + p.failed(); // a request's first attempt is its scheduled send
                    started = true;
                    achieved += st.achievedPerSecond();
                    lagMillisSum += st.sendLagMeanMs() * sent;
                    sends += sent;
                    lagMaxMs = Math.max(lagMaxMs, st.sendLagMaxMs());
                    late += st.lateSends();
                }
            }
            double lagMeanMs = sends == 0 ? 0 : lagMillisSum / sends;
            stages.add(new RampStages.Stage(
                    st0.name(),
                    st0.fromPerSecond(),
                    st0.toPerSecond(),
                    st0.durationSeconds(),
                    offered,
                    achieved,
                    offered == 0 ? 1 : achieved / offered,
                    lagMeanMs,
                    lagMaxMs,
                    late,
                    !started || RampStages.shortfall(offered, achieved, lagMeanMs * 1e6) == null));
        }
        return new RunSummary.RampOutcome(ref.spec(), stages);
    }

    /**
     * One merged scope's latencies, added shard by shard: the histogram, and exact totals (mean and max from a
     * shard's summary where it has them, else its histogram). Not thread-safe.
     */
    private static final class Scope {
        private final Histogram h = LatencyHistograms.forMerge();
        private long count;
        private double sumMillis;
        private double maxMillis;

        void add(Histogram shard, RunSummary.Latency exact) {
            if (shard == null || shard.getTotalCount() == 0) {
                return;
            }
            h.add(shard);
            boolean known = exact != null && exact.mean() != null && exact.max() != null;
            long n = shard.getTotalCount();
            count += n;
            sumMillis += (known ? exact.mean() : shard.getMean() / 1e3) * n;
            maxMillis = Math.max(maxMillis, known ? exact.max() : shard.getMaxValue() / 1e3);
        }

        /** Percentiles from the added histogram, the rest from exact totals. */
        Latency stats() {
            return count == 0
                    ? LatencyHistograms.EMPTY
                    : LatencyHistograms.latency(h, count, sumMillis / count, h.getMinValue() / 1e3, maxMillis);
        }
    }

    /** A merged scope's every, first and intended-send latencies. Not thread-safe. */
    private static final class Latencies {
        private final Scope all = new Scope();
        private final Scope first = new Scope();
        private final Scope intended = new Scope();
        private boolean open;

        /** Adds a shard's scope; {@code intendedExact} is null in the closed model. */
        void add(
                RunRecord s,
                String allTag,
                RunSummary.Latency exact,
                String firstTag,
                String intendedTag,
                RunSummary.Latency intendedExact) {
            all.add(s.histogram(allTag), exact);
            first.add(s.histogram(firstTag), null);
            if (intendedExact != null) {
                open = true;
                intended.add(s.histogram(intendedTag), intendedExact);
            }
        }

        long latencyNanosSum() {
            return Math.round(all.sumMillis * 1e6);
        }

        /** The scope's statistics (throughput: successful requests per second of its duration). */
        ScopeStats scope(String name, int phaseIndex, int threads, boolean started, long durationNanos, Requests q) {
            return new ScopeStats(
                    name,
                    phaseIndex,
                    threads,
                    started,
                    durationNanos,
                    q.successful(),
                    q.throughputPerSecond(durationNanos),
                    all.stats(),
                    first.stats(),
                    all.h,
                    first.h,
                    open ? intended.stats() : null,
                    open ? intended.h : null);
        }
    }
}
