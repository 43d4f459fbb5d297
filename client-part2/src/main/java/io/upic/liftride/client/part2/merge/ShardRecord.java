package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one run of client-part2 tells a merge, beside its histogram logs: the run's identity (plan, -t -s -l -m,
 * ride path values, transport, shard K/N, start and end on the wall clock), its account, its exact latency
 * totals per scope and its per-second counts. Written to {@value ShardFiles#MERGE_INPUT} in every run folder
 * (sharded or not: a run of the whole plan is shard 1/1). Immutable value; arrays are not copied, do not modify.
 *
 * @param format           {@link #FORMAT}; a merge refuses other versions
 * @param plan             --plan
 * @param threads          -t
 * @param skiers           -s
 * @param lifts            -l
 * @param meanRuns         -m
 * @param resort           --resort
 * @param season           --season
 * @param day              --day
 * @param transport        --transport
 * @param shardIndex       K of --shard K/N (1 without --shard)
 * @param shardCount       N of --shard K/N (1 without --shard)
 * @param server           the server's base URL
 * @param startEpochMillis wall clock when the run's clock started
 * @param endEpochMillis   wall clock at its end ({@code startEpochMillis} + wall time, rounded to ms)
 * @param wallNanos        the run's wall time
 * @param stopped          whether the run was stopped early
 * @param planned          requests this shard planned
 * @param successful       requests that got a 201
 * @param failed           requests that failed after their attempts
 * @param notSent          requests never attempted
 * @param retries          attempts beyond the first
 * @param attempts         attempts
 * @param failuresByCause  failed requests by final code
 * @param storedBefore     the server's ridesStored before the run, or null
 * @param storedAfter      the server's ridesStored after the run, or null
 * @param all              every attempt's exact latency totals
 * @param first            first attempts' exact latency totals
 * @param phases           one entry per phase of the plan, in order
 * @param seconds          counts per time bucket on the run's clock
 * @param intended         open model: every attempt's exact latency totals from its intended send; null in the
 *                         closed model (and in files written before it was recorded)
 * @param rate             open model: --rate; null in the closed model
 */
public record ShardRecord(
        int format,
        String plan,
        int threads,
        int skiers,
        int lifts,
        int meanRuns,
        int resort,
        int season,
        int day,
        String transport,
        int shardIndex,
        int shardCount,
        String server,
        long startEpochMillis,
        long endEpochMillis,
        long wallNanos,
        boolean stopped,
        long planned,
        long successful,
        long failed,
        long notSent,
        long retries,
        long attempts,
        Map<Integer, Long> failuresByCause,
        Long storedBefore,
        Long storedAfter,
        Latency all,
        Latency first,
        List<Phase> phases,
        Seconds seconds,
        Latency intended,
        Double rate) {

    /** The version of this file's layout. */
    public static final int FORMAT = 1;

    /**
     * Exact latency totals of a set of attempts (count, mean, min, max as {@link LatencyStats} has them); the
     * percentiles come from the histogram logs.
     */
    public record Latency(long count, double meanMillis, double minMillis, double maxMillis) {

        /** The totals of {@code s}, or null when there is none (the closed model's intended latency). */
        static Latency ofNullable(LatencyStats s) {
            return s == null ? null : of(s);
        }

        static Latency of(LatencyStats s) {
            return new Latency(s.count(), s.count() == 0 ? 0 : s.meanMillis(), s.minMillis(), s.maxMillis());
        }
    }

    /**
     * One phase's account on this shard.
     *
     * @param failedAttempts attempts without a 201 (a failed request's retries included)
     * @param durationNanos  the phase's start to its last thread's end on this shard
     * @param intended       open model: latency totals from the intended send; null otherwise
     */
    public record Phase(
            int index,
            String name,
            int threads,
            long planned,
            long successful,
            long failed,
            long notSent,
            long retries,
            long attempts,
            long failedAttempts,
            boolean started,
            long startEpochMillis,
            long endEpochMillis,
            long durationNanos,
            Latency all,
            Latency first,
            Latency intended) {

        /** The phase's request account on this shard. */
        public Requests requests() {
            return new Requests(planned, successful, failed, notSent, retries, attempts);
        }
    }

    /**
     * Counts per time bucket: bucket i covers attempts that completed in [origin + i w, origin + (i + 1) w), w
     * being {@code bucketMillis}. (Named for the 1 s buckets of the first format; a file written before the width
     * was recorded has none, and its buckets are 1 s wide.)
     *
     * @param originEpochMillis the run's start on the wall clock
     * @param bucketMillis      the buckets' width; null in files of 1 s buckets written before it was recorded
     * @param intendedSumMicros open model: each bucket's latency sum from the intended send; null otherwise
     */
    public record Seconds(
            long originEpochMillis,
            long[] attempts,
            long[] successful,
            long[] failed,
            long[] latencySumMicros,
            Long bucketMillis,
            long[] intendedSumMicros) {

        /** Buckets covered. */
        public int length() {
            return attempts.length;
        }

        /** The buckets' width in ms (1,000 in the files of before). */
        public long widthMillis() {
            return bucketMillis == null ? 1000 : bucketMillis;
        }

        /** The counts of {@code buckets}, on a clock that started at {@code originEpochMillis}. */
        static Seconds of(long originEpochMillis, TimeBuckets buckets) {
            int n = buckets.count();
            long[] attempts = new long[n], ok = new long[n], failed = new long[n], sum = new long[n];
            long[] intended = buckets.hasFromIntended() ? new long[n] : null;
            for (int s = 0; s < n; s++) {
                attempts[s] = buckets.attempts(s);
                ok[s] = buckets.successful(s);
                failed[s] = buckets.failed(s);
                sum[s] = buckets.latencySumMicros(s);
                if (intended != null) {
                    intended[s] = buckets.fromIntendedSumMicros(s);
                }
            }
            return new Seconds(originEpochMillis, attempts, ok, failed, sum, buckets.bucketMillis(), intended);
        }

        /** Bucket {@code i}'s counts. */
        public TimeBuckets.Counts counts(int i) {
            return new TimeBuckets.Counts(
                    attempts[i],
                    successful[i],
                    failed[i],
                    latencySumMicros[i],
                    intendedSumMicros == null ? 0 : intendedSumMicros[i]);
        }
    }

    /** This shard's request account. */
    public Requests requests() {
        return new Requests(planned, successful, failed, notSent, retries, attempts);
    }

    /** The record of a finished run. */
    public static ShardRecord of(RunReport report, RunMetrics metrics, TimeBuckets buckets) {
        RunConfig c = report.config();
        RunResult r = report.result();
        List<Phase> phases = new ArrayList<>(r.phases().size());
        for (PhaseResult p : r.phases()) {
            ScopeStats s = metrics.phases().get(p.index());
            long offsetStart = (p.startNanos() - r.startNanos()) / 1_000_000;
            long offsetEnd = (p.endNanos() - r.startNanos()) / 1_000_000;
            phases.add(new Phase(
                    p.index(),
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.requests().failed(),
                    p.requests().notSent(),
                    p.requests().retries(),
                    p.requests().attempts(),
                    s.failedAttempts(),
                    p.started(),
                    p.started() ? r.startEpochMillis() + offsetStart : 0,
                    p.started() ? r.startEpochMillis() + offsetEnd : 0,
                    p.durationNanos(),
                    Latency.of(s.all()),
                    Latency.of(s.first()),
                    Latency.ofNullable(s.fromIntended())));
        }
        var rec = report.reconciliation();
        return new ShardRecord(
                FORMAT,
                r.planName(),
                c.threads(),
                c.skiers(),
                c.lifts(),
                c.meanRuns(),
                c.resortId(),
                c.seasonId(),
                c.dayId(),
                c.transport().cliName(),
                c.shard().index(),
                c.shard().count(),
                report.serverUrl(),
                r.startEpochMillis(),
                r.startEpochMillis() + r.wallNanos() / 1_000_000,
                r.wallNanos(),
                r.stopped(),
                r.requests().planned(),
                r.requests().successful(),
                r.requests().failed(),
                r.requests().notSent(),
                r.requests().retries(),
                r.requests().attempts(),
                r.failuresByCause(),
                rec.storedBefore().isPresent() ? rec.storedBefore().getAsLong() : null,
                rec.storedAfter().isPresent() ? rec.storedAfter().getAsLong() : null,
                Latency.of(metrics.run().all()),
                Latency.of(metrics.run().first()),
                phases,
                Seconds.of(r.startEpochMillis(), buckets),
                Latency.ofNullable(metrics.run().fromIntended()),
                report.config().rate());
    }

    /** "shard K/N". */
    public String shardLabel() {
        return shardIndex + "/" + shardCount;
    }

    /** The plan as a merge compares it: everything that must be equal for shards to add up to one plan. */
    public String planIdentity() {
        return String.format(
                Locale.ROOT,
                "plan %s -t %d -s %d -l %d -m %d (resort %d, season %d, day %d)",
                plan,
                threads,
                skiers,
                lifts,
                meanRuns,
                resort,
                season,
                day);
    }

    /** Checks what a file read from disk must hold. */
    public ShardRecord {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(phases, "phases");
        Objects.requireNonNull(seconds, "seconds");
        Objects.requireNonNull(all, "all");
        Objects.requireNonNull(first, "first");
        failuresByCause = failuresByCause == null ? Map.of() : Map.copyOf(failuresByCause);
        phases = List.copyOf(phases);
    }
}
