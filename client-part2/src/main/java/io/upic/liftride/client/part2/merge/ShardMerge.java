package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * Joins the shards of one run into a {@link MergedRun}, after checking they are the parts of one plan. Pure
 * function of its input; static and thread-safe.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Refused (one line naming the folders): different plan name, -t, -s, -l, -m, resort, season or day;
 *       different N; the same K twice; an unreadable folder. Different transports are merged and noted.</li>
 *   <li>Missing shards are refused unless the caller allows them ({@code --allow-missing}): the point of a merge
 *       is the plan's totals, and a merge of 3 of 4 shards looks like a complete run with a quarter fewer
 *       requests. When allowed, the report says which shards are missing and how many requests they planned.</li>
 *   <li>Counts add; histograms add (no loss: the same buckets); exact count, mean, min and max combine exactly
 *       (the mean weighted by count); percentiles are read from the added histograms.</li>
 *   <li>One clock: the wall clock. The merged run starts at the earliest shard's start and ends at the latest
 *       shard's end; a phase spans from its earliest start to its latest end on any shard (shards' phases are not
 *       aligned, their triggers being per shard). A shard's second s is placed at the merged second nearest to
 *       its start on the wall clock (within half a second, plus the machines' clock offset).</li>
 * </ul>
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
        sorted.sort(Comparator.comparingInt(s -> s.record().shardIndex()));
        ShardRun ref = sorted.get(0);
        for (ShardRun s : sorted) {
            if (!s.record().planIdentity().equals(ref.record().planIdentity())) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " ran "
                        + s.record().planIdentity() + " but " + ref.dir() + " ran "
                        + ref.record().planIdentity());
            }
            if (s.record().shardCount() != ref.record().shardCount()) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " is shard "
                        + s.record().shardLabel() + " but " + ref.dir() + " is shard "
                        + ref.record().shardLabel());
            }
            if (s.record().phases().size() != ref.record().phases().size()) {
                throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + " has "
                        + s.record().phases().size() + " phases, " + ref.dir() + " has "
                        + ref.record().phases().size());
            }
        }
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).record().shardIndex()
                    == sorted.get(i - 1).record().shardIndex()) {
                throw new MergeRefusedException("cannot merge " + name + ": shard "
                        + sorted.get(i).record().shardLabel() + " given twice ("
                        + sorted.get(i - 1).dir() + " and "
                        + sorted.get(i).dir() + ")");
            }
        }
        int n = ref.record().shardCount();
        List<Integer> missing = new ArrayList<>();
        TreeSet<Integer> present = new TreeSet<>();
        sorted.forEach(s -> present.add(s.record().shardIndex()));
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
            checkLogMatchesRecord(name, s, "", s.record().all().count());
            checkLogMatchesRecord(name, s, HdrLog.FIRST, s.record().first().count());
        }
        return join(name, sorted, missing);
    }

    private static void checkLogMatchesRecord(String name, ShardRun s, String tag, long count)
            throws MergeRefusedException {
        Histogram h = s.histogram(tag);
        long logged = h == null ? 0 : h.getTotalCount();
        if (logged != count) {
            throw new MergeRefusedException("cannot merge " + name + ": " + s.dir() + "/" + HdrLog.FILE + " holds "
                    + logged + " latencies" + (tag.isEmpty() ? "" : " tagged " + tag) + " but "
                    + ShardFiles.MERGE_INPUT + " counts " + count + " (files from different runs?)");
        }
    }

    private static String labels(List<Integer> ks, int n) {
        StringBuilder b = new StringBuilder();
        for (int k : ks) {
            b.append(b.length() == 0 ? "" : ", ").append(k).append('/').append(n);
        }
        return b.toString();
    }

    private static MergedRun join(String name, List<ShardRun> shards, List<Integer> missing) {
        long origin = shards.stream()
                .mapToLong(s -> s.record().startEpochMillis())
                .min()
                .orElseThrow();
        long endNanos = shards.stream()
                .mapToLong(s -> (s.record().startEpochMillis() - origin) * 1_000_000
                        + s.record().wallNanos())
                .max()
                .orElseThrow();
        ShardRecord ref = shards.get(0).record();
        List<PhaseResult> phases = new ArrayList<>();
        List<ScopeStats> phaseStats = new ArrayList<>();
        for (int k = 0; k < ref.phases().size(); k++) {
            joinPhase(k, shards, origin, phases, phaseStats);
        }
        Requests requests = Requests.NONE;
        long failedAttempts = 0;
        boolean stopped = false;
        Map<Integer, Long> causes = new TreeMap<>();
        Latencies run = new Latencies();
        List<ScopeStats> shardStats = new ArrayList<>(shards.size());
        TreeSet<String> transports = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (ShardRun s : shards) {
            ShardRecord r = s.record();
            requests = requests.plus(r.requests());
            stopped |= r.stopped();
            r.failuresByCause().forEach((code, count) -> causes.merge(code, count, Long::sum));
            transports.add(r.transport());
            long shardFailedAttempts = r.phases().stream()
                    .mapToLong(ShardRecord.Phase::failedAttempts)
                    .sum();
            failedAttempts += shardFailedAttempts;
            Latencies shard = new Latencies();
            shard.add(r.all(), r.first(), s.histogram(""), s.histogram(HdrLog.FIRST));
            run.add(r.all(), r.first(), s.histogram(""), s.histogram(HdrLog.FIRST));
            shard.intended(r.intended(), s.histogram(HdrLog.INTENDED));
            run.intended(r.intended(), s.histogram(HdrLog.INTENDED));
            String label = "shard " + r.shardLabel();
            shardStats.add(
                    shard.scope(label, -1, r.threads(), true, r.wallNanos(), r.successful(), shardFailedAttempts));
            if (r.stopped()) {
                problems.add(label + " (" + s.dir() + ") was stopped early");
            }
        }
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
                .build();
        ScopeStats runStats =
                run.scope("run", -1, ref.threads(), true, endNanos, requests.successful(), failedAttempts);
        return new MergedRun(
                name,
                shards,
                missing,
                result,
                new RunMetrics(runStats, phaseStats),
                shardStats,
                seconds(shards, origin),
                List.copyOf(transports));
    }

    /** Phase {@code k} of every shard joined: its account to {@code phases}, its statistics to {@code stats}. */
    private static void joinPhase(
            int k, List<ShardRun> shards, long origin, List<PhaseResult> phases, List<ScopeStats> stats) {
        String phaseName = shards.get(0).record().phases().get(k).name();
        int threads = 0;
        Requests requests = Requests.NONE;
        long failedAttempts = 0;
        long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
        boolean started = false;
        Latencies latencies = new Latencies();
        for (ShardRun s : shards) {
            ShardRecord.Phase p = s.record().phases().get(k);
            threads += p.threads();
            requests = requests.plus(p.requests());
            failedAttempts += p.failedAttempts();
            latencies.add(
                    p.all(), p.first(), s.histogram(HdrLog.tag(phaseName)), s.histogram(HdrLog.firstTag(phaseName)));
            latencies.intended(p.intended(), s.histogram(HdrLog.intendedTag(phaseName)));
            if (p.started()) {
                started = true;
                start = Math.min(start, p.startEpochMillis());
                end = Math.max(end, p.endEpochMillis());
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
        stats.add(latencies.scope(
                phaseName, k, threads, started, pr.durationNanos(), requests.successful(), failedAttempts));
    }

    /**
     * The histograms and the shards' exact latency totals of one merged scope, added shard by shard. Not
     * thread-safe.
     */
    private static final class Latencies {
        private final Histogram all = LatencyHistograms.forMerge();
        private final Histogram first = LatencyHistograms.forMerge();
        private final List<ShardRecord.Latency> allTotals = new ArrayList<>();
        private final List<ShardRecord.Latency> firstTotals = new ArrayList<>();
        private final Histogram intended = LatencyHistograms.forMerge();
        private final List<ShardRecord.Latency> intendedTotals = new ArrayList<>();
        private double latencySumMillis;

        /** Adds a shard's latencies from the intended send (the open model); nothing for a closed-model shard. */
        void intended(ShardRecord.Latency total, Histogram h) {
            if (total != null) {
                intendedTotals.add(total);
                addIfPresent(intended, h);
            }
        }

        void add(ShardRecord.Latency allTotal, ShardRecord.Latency firstTotal, Histogram allH, Histogram firstH) {
            allTotals.add(allTotal);
            firstTotals.add(firstTotal);
            latencySumMillis += allTotal.meanMillis() * allTotal.count();
            addIfPresent(all, allH);
            addIfPresent(first, firstH);
        }

        long latencyNanosSum() {
            return Math.round(latencySumMillis * 1e6);
        }

        /**
         * The scope's statistics (throughput: successful requests per second of its duration); the intended
         * latencies are null unless the shards ran in the open model.
         */
        ScopeStats scope(
                String name,
                int phaseIndex,
                int threads,
                boolean started,
                long durationNanos,
                long successful,
                long failedAttempts) {
            return new ScopeStats(
                    name,
                    phaseIndex,
                    threads,
                    started,
                    durationNanos,
                    successful,
                    failedAttempts,
                    durationNanos <= 0 ? 0 : successful * 1e9 / durationNanos,
                    stats(all, allTotals),
                    stats(first, firstTotals),
                    all,
                    first,
                    intendedTotals.isEmpty() ? null : stats(intended, intendedTotals),
                    intendedTotals.isEmpty() ? null : intended);
        }
    }

    /**
     * Each shard's time buckets moved to the merged clock and added, in buckets as wide as the widest shard's: a
     * shard's bucket goes to the merged bucket holding its start on the wall clock.
     */
    private static TimeBuckets seconds(List<ShardRun> shards, long origin) {
        long width = shards.stream()
                .mapToLong(s -> s.record().seconds().widthMillis())
                .max()
                .orElse(TimeBuckets.FINE_MILLIS);
        TimeBuckets merged = new TimeBuckets(width);
        merged.setOrigin(0);
        for (ShardRun s : shards) {
            ShardRecord.Seconds sec = s.record().seconds();
            Map<Long, Histogram> hist = byBucket(s.perSecond(), sec);
            Map<Long, Histogram> intended = byBucket(s.perSecondIntended(), sec);
            for (int i = 0; i < sec.length(); i++) {
                if (sec.attempts()[i] == 0) {
                    continue;
                }
                long offsetMillis = sec.originEpochMillis() - origin + i * sec.widthMillis();
                merged.addBucket(
                        Math.max(0, offsetMillis) * 1_000_000, sec.counts(i), hist.get((long) i), intended.get((long)
                                i));
            }
        }
        return merged;
    }

    /** A per-bucket log's histograms by bucket index (the timestamps rounded to the nearest bucket start). */
    private static Map<Long, Histogram> byBucket(Map<Long, Histogram> byStart, ShardRecord.Seconds sec) {
        Map<Long, Histogram> byIndex = new HashMap<>();
        byStart.forEach((start, h) ->
                byIndex.put(Math.round((start - sec.originEpochMillis()) / (double) sec.widthMillis()), h));
        return byIndex;
    }

    /**
     * Statistics of a merged scope: the percentiles of the added histogram, count, min, max and mean from the
     * shards' exact totals.
     */
    static LatencyStats stats(Histogram h, List<ShardRecord.Latency> parts) {
        long count = 0;
        double sum = 0, min = Double.MAX_VALUE, max = 0;
        for (ShardRecord.Latency l : parts) {
            if (l.count() == 0) {
                continue;
            }
            count += l.count();
            sum += l.meanMillis() * l.count();
            min = Math.min(min, l.minMillis());
            max = Math.max(max, l.maxMillis());
        }
        if (count == 0) {
            return LatencyStats.EMPTY;
        }
        return new LatencyStats(
                count,
                sum / count,
                min,
                LatencyStats.percentileMillis(h, 50, max),
                LatencyStats.percentileMillis(h, 90, max),
                LatencyStats.percentileMillis(h, 95, max),
                LatencyStats.percentileMillis(h, 99, max),
                LatencyStats.percentileMillis(h, 99.9, max),
                max);
    }

    private static void addIfPresent(Histogram into, Histogram h) {
        if (h != null) {
            into.add(h);
        }
    }
}
