package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.SecondBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import java.util.ArrayList;
import java.util.Comparator;
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
        long origin = Long.MAX_VALUE;
        long endNanos = 0;
        for (ShardRun s : shards) {
            origin = Math.min(origin, s.record().startEpochMillis());
        }
        for (ShardRun s : shards) {
            endNanos = Math.max(
                    endNanos,
                    (s.record().startEpochMillis() - origin) * 1_000_000
                            + s.record().wallNanos());
        }
        ShardRecord ref = shards.get(0).record();
        int phaseCount = ref.phases().size();

        List<PhaseResult> phases = new ArrayList<>(phaseCount);
        List<ScopeStats> phaseStats = new ArrayList<>(phaseCount);
        for (int k = 0; k < phaseCount; k++) {
            phaseStats.add(null);
        }
        Histogram runAll = LatencyHistograms.forMerge();
        Histogram runFirst = LatencyHistograms.forMerge();
        for (int k = 0; k < phaseCount; k++) {
            String phaseName = ref.phases().get(k).name();
            int threads = 0;
            long planned = 0, ok = 0, failed = 0, notSent = 0, retries = 0, attempts = 0, failedAttempts = 0;
            long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
            boolean started = false;
            double latencySumMillis = 0;
            List<ShardRecord.Latency> all = new ArrayList<>(), first = new ArrayList<>();
            Histogram hAll = LatencyHistograms.forMerge();
            Histogram hFirst = LatencyHistograms.forMerge();
            for (ShardRun s : shards) {
                ShardRecord.Phase p = s.record().phases().get(k);
                threads += p.threads();
                planned += p.planned();
                ok += p.successful();
                failed += p.failed();
                notSent += p.notSent();
                retries += p.retries();
                attempts += p.attempts();
                failedAttempts += p.failedAttempts();
                latencySumMillis += p.all().meanMillis() * p.all().count();
                all.add(p.all());
                first.add(p.first());
                if (p.started()) {
                    started = true;
                    start = Math.min(start, p.startEpochMillis());
                    end = Math.max(end, p.endEpochMillis());
                }
                addIfPresent(hAll, s.histogram(HdrLog.tag(phaseName)));
                addIfPresent(hFirst, s.histogram(HdrLog.firstTag(phaseName)));
            }
            long startNanos = started ? (start - origin) * 1_000_000 : 0;
            long phaseEndNanos = started ? (end - origin) * 1_000_000 : 0;
            PhaseResult pr = PhaseResult.builder()
                    .index(k)
                    .name(phaseName)
                    .threads(threads)
                    .planned(planned)
                    .successful(ok)
                    .failed(failed)
                    .notSent(notSent)
                    .retries(retries)
                    .attempts(attempts)
                    .latencyNanosSum(Math.round(latencySumMillis * 1e6))
                    .failuresByCause(Map.of()) // a shard keeps failures by cause for its whole run only
                    .started(started)
                    .startEpochMillis(started ? start : 0)
                    .startNanos(startNanos)
                    .endEpochMillis(started ? end : 0)
                    .endNanos(phaseEndNanos)
                    .build();
            phases.add(pr);
            phaseStats.set(
                    k,
                    scope(
                            phaseName,
                            k,
                            threads,
                            started,
                            pr.durationNanos(),
                            ok,
                            failedAttempts,
                            pr.throughputPerSecond(),
                            hAll,
                            all,
                            hFirst,
                            first));
        }

        long planned = 0, ok = 0, failed = 0, notSent = 0, retries = 0, attempts = 0, failedAttempts = 0;
        double latencySumMillis = 0;
        boolean stopped = false;
        Map<Integer, Long> causes = new TreeMap<>();
        List<ShardRecord.Latency> all = new ArrayList<>(), first = new ArrayList<>();
        List<ScopeStats> shardStats = new ArrayList<>(shards.size());
        TreeSet<String> transports = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (ShardRun s : shards) {
            ShardRecord r = s.record();
            planned += r.planned();
            ok += r.successful();
            failed += r.failed();
            notSent += r.notSent();
            retries += r.retries();
            attempts += r.attempts();
            latencySumMillis += r.all().meanMillis() * r.all().count();
            stopped |= r.stopped();
            r.failuresByCause().forEach((code, count) -> causes.merge(code, count, Long::sum));
            all.add(r.all());
            first.add(r.first());
            transports.add(r.transport());
            long shardFailedAttempts = 0;
            for (ShardRecord.Phase p : r.phases()) {
                shardFailedAttempts += p.failedAttempts();
            }
            failedAttempts += shardFailedAttempts;
            Histogram sAll = copyOrEmpty(s.histogram(""));
            Histogram sFirst = copyOrEmpty(s.histogram(HdrLog.FIRST));
            runAll.add(sAll);
            runFirst.add(sFirst);
            shardStats.add(scope(
                    "shard " + r.shardLabel(),
                    -1,
                    r.threads(),
                    true,
                    r.wallNanos(),
                    r.successful(),
                    shardFailedAttempts,
                    r.wallNanos() <= 0 ? 0 : r.successful() * 1e9 / r.wallNanos(),
                    sAll,
                    List.of(r.all()),
                    sFirst,
                    List.of(r.first())));
            if (r.stopped()) {
                problems.add("shard " + r.shardLabel() + " (" + s.dir() + ") was stopped early");
            }
        }
        RunResult result = RunResult.builder()
                .planName(ref.plan())
                .numThreads(ref.threads())
                .phases(phases)
                .planned(planned)
                .successful(ok)
                .failed(failed)
                .notSent(notSent)
                .retries(retries)
                .attempts(attempts)
                .latencyNanosSum(Math.round(latencySumMillis * 1e6))
                .failuresByCause(causes)
                .startEpochMillis(origin)
                .startNanos(0)
                .wallNanos(endNanos)
                .stopped(stopped)
                .problems(problems)
                .build();
        ScopeStats run = scope(
                "run",
                -1,
                ref.threads(),
                true,
                endNanos,
                ok,
                failedAttempts,
                result.throughputPerSecond(),
                runAll,
                all,
                runFirst,
                first);
        return new MergedRun(
                name,
                shards,
                missing,
                result,
                new RunMetrics(run, phaseStats),
                shardStats,
                seconds(shards, origin),
                List.copyOf(transports));
    }

    /** Each shard's seconds moved to the merged clock and added. */
    private static SecondBuckets seconds(List<ShardRun> shards, long origin) {
        SecondBuckets merged = new SecondBuckets();
        merged.setOrigin(0);
        for (ShardRun s : shards) {
            ShardRecord.Seconds sec = s.record().seconds();
            long shift = Math.round((sec.originEpochMillis() - origin) / 1000.0);
            Map<Long, Histogram> hist = s.perSecond();
            for (int i = 0; i < sec.length(); i++) {
                if (sec.attempts()[i] == 0) {
                    continue;
                }
                Histogram h = hist.get(sec.originEpochMillis() + i * 1000L);
                merged.addSecond(
                        (int) (i + shift),
                        sec.attempts()[i],
                        sec.successful()[i],
                        sec.failed()[i],
                        sec.latencySumMicros()[i],
                        h);
            }
        }
        return merged;
    }

    /**
     * A merged scope's statistics from its added histograms and the shards' exact totals. Intended latencies are
     * not merged yet (a merge of --rate shards shows the actual ones), so those components are null.
     */
    private static ScopeStats scope(
            String name,
            int phaseIndex,
            int threads,
            boolean started,
            long durationNanos,
            long successful,
            long failedAttempts,
            double throughputPerSecond,
            Histogram all,
            List<ShardRecord.Latency> allTotals,
            Histogram first,
            List<ShardRecord.Latency> firstTotals) {
        return new ScopeStats(
                name,
                phaseIndex,
                threads,
                started,
                durationNanos,
                successful,
                failedAttempts,
                throughputPerSecond,
                stats(all, allTotals),
                stats(first, firstTotals),
                all,
                first,
                null,
                null);
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
                LatencyStats.percentileMillis(h, 50),
                LatencyStats.percentileMillis(h, 90),
                LatencyStats.percentileMillis(h, 95),
                LatencyStats.percentileMillis(h, 99),
                LatencyStats.percentileMillis(h, 99.9),
                max);
    }

    private static void addIfPresent(Histogram into, Histogram h) {
        if (h != null) {
            into.add(h);
        }
    }

    private static Histogram copyOrEmpty(Histogram h) {
        Histogram c = LatencyHistograms.forMerge();
        addIfPresent(c, h);
        return c;
    }
}
