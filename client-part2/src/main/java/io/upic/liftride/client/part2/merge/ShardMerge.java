package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * Joins the shards of one run into a {@link MergedRun} from their records only (summary and histogram logs),
 * after checking they are the parts of one plan. Static and thread-safe. Refused in one line: different plan
 * inputs or N, a K twice, an unreadable folder, a log that does not count its summary's attempts, or a missing
 * shard without {@code allowMissing}. Counts and histograms add; mean and max combine exactly, percentiles
 * come from the added histograms. The clock is the wall clock: a shard's bucket adds into the merged bucket
 * holding its middle.
 */
public final class ShardMerge {

    private ShardMerge() {}

    /**
     * Merges {@code shards} (the run folders called {@code name} of every shard).
     *
     * @throws MergeRefusedException when they are not the parts of one plan (see the class comment)
     */
    public static MergedRun merge(String name, List<ShardRun> shards, boolean allowMissing)
            throws MergeRefusedException {
        if (shards.isEmpty()) {
            throw new MergeRefusedException("nothing to merge for " + name);
        }
        List<ShardRun> sorted = new ArrayList<>(shards);
        sorted.sort(Comparator.comparingInt(ShardRun::index));
        ShardRun ref = sorted.get(0);
        for (ShardRun s : sorted) {
            if (!s.planIdentity().equals(ref.planIdentity())) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " ran " + s.planIdentity()
                        + " but " + ref.dir() + " ran " + ref.planIdentity());
            }
            if (s.count() != ref.count()) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " is shard " + s.label()
                        + " but " + ref.dir() + " is shard " + ref.label());
            }
            if (s.summary().phases().size() != ref.summary().phases().size()) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " has "
                        + s.summary().phases().size() + " phases, " + ref.dir() + " has "
                        + ref.summary().phases().size());
            }
        }
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).index() == sorted.get(i - 1).index()) {
                throw new MergeRefusedException("cannot merge " + name + ": shard "
                        + sorted.get(i).label() + " given twice ("
                        + sorted.get(i - 1).dir() + " and " + sorted.get(i).dir() + ")");
            }
        }
        int n = ref.count();
        List<Integer> missing = new ArrayList<>();
        TreeSet<Integer> present = new TreeSet<>();
        sorted.forEach(s -> present.add(s.index()));
        for (int k = 1; k <= n; k++) {
            if (!present.contains(k)) {
                missing.add(k);
            }
        }
        if (!missing.isEmpty() && !allowMissing) {
            throw new MergeRefusedException("cannot merge " + name + ": shards " + labels(missing, n) + " missing ("
                    + sorted.size() + " of " + n + " given); their requests would be missing from the totals. Pass"
                    + " --allow-missing to merge the shards there are");
        }
        for (ShardRun s : sorted) {
            Requests q = s.requests();
            checkLogMatchesSummary(name, s, "", q.attempts());
            checkLogMatchesSummary(name, s, HdrLog.FIRST, q.attempts() - q.retries());
        }
        return join(name, sorted, missing);
    }

    private static void checkLogMatchesSummary(String name, ShardRun s, String tag, long count)
            throws MergeRefusedException {
        long logged = count(s.histogram(tag));
        if (logged != count) {
            throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + "/" + HdrLog.FILE + " holds "
                    + logged + " latencies" + (tag.isEmpty() ? "" : " tagged " + tag) + " but " + SummaryJson.FILE
                    + " counts " + count + " (files from different runs?)");
        }
    }

    private static long count(Histogram h) {
        return h == null ? 0 : h.getTotalCount();
    }

    private static String labels(List<Integer> ks, int n) {
        StringBuilder b = new StringBuilder();
        for (int k : ks) {
            b.append(b.length() == 0 ? "" : ", ").append(k).append('/').append(n);
        }
        return b.toString();
    }

    private static MergedRun join(String name, List<ShardRun> shards, List<Integer> missing)
            throws MergeRefusedException {
        long origin =
                shards.stream().mapToLong(ShardRun::startEpochMillis).min().orElseThrow();
        long endNanos = shards.stream()
                .mapToLong(s -> (s.startEpochMillis() - origin) * 1_000_000 + s.wallNanos())
                .max()
                .orElseThrow();
        RunSummary ref = shards.get(0).summary();
        List<PhaseResult> phases = new ArrayList<>();
        List<ScopeStats> phaseStats = new ArrayList<>();
        for (int k = 0; k < ref.phases().size(); k++) {
            joinPhase(k, shards, origin, phases, phaseStats);
        }
        Requests requests = Requests.NONE;
        boolean stopped = false;
        Map<Integer, Long> causes = new TreeMap<>();
        Latencies run = new Latencies();
        TreeSet<String> transports = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        TimeBuckets buckets = new TimeBuckets();
        buckets.setOrigin(0);
        for (ShardRun s : shards) {
            RunSummary r = s.summary();
            requests = requests.plus(s.requests());
            stopped |= r.stopped();
            r.failuresByCause().forEach((code, count) -> causes.merge(code, count, Long::sum));
            transports.add(r.transport());
            run.add(s.histogram(""), r.latencyMs(), s.histogram(HdrLog.FIRST));
            run.intended(s.histogram(HdrLog.INTENDED), r.latencyFromIntendedMs());
            if (r.stopped() && r.abort() == null) { // an abort is the merged run's, not a problem
                problems.add("shard " + s.label() + " (" + s.dir() + ") was stopped early");
            }
            s.addBuckets(origin, buckets);
        }
        Map<Operation, OperationStats> operations = new EnumMap<>(Operation.class);
        Map<Operation, RunMetrics.OperationLatency> operationLatencies = new EnumMap<>(Operation.class);
        joinOperations(name, shards, operations, operationLatencies);
        RunResult result = RunResult.builder()
                .planName(ref.plan())
                .numThreads(ref.threads())
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
        ScopeStats runStats = run.scope("run", -1, ref.threads(), true, endNanos, requests);
        return new MergedRun(
                name,
                shards,
                missing,
                result,
                new RunMetrics(runStats, phaseStats, operationLatencies),
                buckets,
                List.copyOf(transports),
                ThresholdCheck.NONE);
    }

    /**
     * The shards' operations joined; an operation some shard did not log a histogram for gets no latencies,
     * as percentiles do not average.
     */
    private static void joinOperations(
            String name,
            List<ShardRun> shards,
            Map<Operation, OperationStats> counts,
            Map<Operation, RunMetrics.OperationLatency> latencies)
            throws MergeRefusedException {
        Map<Operation, Histogram> histograms = new EnumMap<>(Operation.class);
        Map<Operation, List<Part>> parts = new EnumMap<>(Operation.class);
        Set<Operation> unlogged = EnumSet.noneOf(Operation.class);
        for (ShardRun s : shards) {
            for (RunSummary.OperationRow row :
                    Objects.requireNonNullElse(s.summary().operations(), List.<RunSummary.OperationRow>of())) {
                Operation op;
                try {
                    op = Operation.of(row.operation());
                } catch (IllegalArgumentException e) {
                    throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + ": " + e.getMessage());
                }
                Double mean = row.latencyMs().mean();
                long nanosSum = mean == null ? 0 : Math.round(mean * 1e6 * row.attempts());
                counts.merge(
                        op,
                        new OperationStats(
                                op, row.requests(), row.successful(), row.notFound(), row.attempts(), nanosSum),
                        OperationStats::plus);
                Histogram h = s.histogram(HdrLog.operationTag(op));
                if (h == null && row.attempts() > 0) {
                    unlogged.add(op);
                } else if (h != null && h.getTotalCount() > 0) {
                    histograms
                            .computeIfAbsent(op, k -> LatencyHistograms.forMerge())
                            .add(h);
                    parts.computeIfAbsent(op, k -> new ArrayList<>()).add(Part.of(h, row.latencyMs()));
                }
            }
        }
        histograms.forEach((op, h) -> {
            if (!unlogged.contains(op)) {
                latencies.put(op, new RunMetrics.OperationLatency(h, stats(h, parts.get(op))));
            }
        });
    }

    /** Phase {@code k} of every shard joined: its account to {@code phases}, its statistics to {@code stats}. */
    private static void joinPhase(
            int k, List<ShardRun> shards, long origin, List<PhaseResult> phases, List<ScopeStats> stats) {
        String phaseName = shards.get(0).summary().phases().get(k).name();
        int threads = 0;
        Requests requests = Requests.NONE;
        long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
        boolean started = false;
        Latencies latencies = new Latencies();
        for (ShardRun s : shards) {
            RunSummary.Phase p = s.summary().phases().get(k);
            Histogram all = s.histogram(HdrLog.tag(phaseName));
            Histogram first = s.histogram(HdrLog.firstTag(phaseName));
            long attempts = count(all);
            threads += p.threads();
            requests = requests.plus(new Requests(
                    p.requests(),
                    p.successful(),
                    p.failed(),
                    p.requests() - p.successful() - p.failed(),
                    attempts - count(first),
                    attempts));
            latencies.add(all, p.latencyMs(), first);
            latencies.intended(s.histogram(HdrLog.intendedTag(phaseName)), p.latencyFromIntendedMs());
            if (all != null) { // the log holds the phases that started, timed from their start to their end
                started = true;
                start = Math.min(start, all.getStartTimeStamp());
                end = Math.max(end, all.getEndTimeStamp());
            }
        }
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

    /** Exact totals of one shard's scope: mean and max from its summary where it has them, else the histogram. */
    private record Part(long count, double meanMillis, double minMillis, double maxMillis) {

        static Part of(Histogram h, RunSummary.Latency exact) {
            boolean known = exact != null && exact.mean() != null && exact.max() != null;
            return new Part(
                    h.getTotalCount(),
                    known ? exact.mean() : h.getMean() / 1e3,
                    h.getMinValue() / 1e3,
                    known ? exact.max() : h.getMaxValue() / 1e3);
        }
    }

    /** The histograms and the shards' totals of one merged scope, added shard by shard. Not thread-safe. */
    private static final class Latencies {
        private final Histogram all = LatencyHistograms.forMerge();
        private final Histogram first = LatencyHistograms.forMerge();
        private final Histogram intended = LatencyHistograms.forMerge();
        private final List<Part> allParts = new ArrayList<>();
        private final List<Part> firstParts = new ArrayList<>();
        private final List<Part> intendedParts = new ArrayList<>();
        private boolean open;

        void add(Histogram allH, RunSummary.Latency exact, Histogram firstH) {
            add(all, allParts, allH, exact);
            add(first, firstParts, firstH, null);
        }

        /** Adds a shard's latencies from the intended send (the open model: {@code exact} not null). */
        void intended(Histogram h, RunSummary.Latency exact) {
            if (exact != null) {
                open = true;
                add(intended, intendedParts, h, exact);
            }
        }

        private static void add(Histogram into, List<Part> parts, Histogram h, RunSummary.Latency exact) {
            if (h != null && h.getTotalCount() > 0) {
                into.add(h);
                parts.add(Part.of(h, exact));
            }
        }

        long latencyNanosSum() {
            return Math.round(allParts.stream()
                            .mapToDouble(p -> p.meanMillis() * p.count())
                            .sum()
                    * 1e6);
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
                    stats(all, allParts),
                    stats(first, firstParts),
                    all,
                    first,
                    open ? stats(intended, intendedParts) : null,
                    open ? intended : null);
        }
    }

    /** A merged scope: percentiles from the added histogram, the rest from exact totals. */
    static Latency stats(Histogram h, List<Part> parts) {
        long count = 0;
        double sum = 0, min = Double.MAX_VALUE, max = 0;
        for (Part l : parts) {
            if (l.count() == 0) {
                continue;
            }
            count += l.count();
            sum += l.meanMillis() * l.count();
            min = Math.min(min, l.minMillis());
            max = Math.max(max, l.maxMillis());
        }
        return count == 0 ? LatencyHistograms.EMPTY : LatencyHistograms.latency(h, count, sum / count, min, max);
    }
}
