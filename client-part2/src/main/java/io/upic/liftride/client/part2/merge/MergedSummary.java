package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.util.ArrayList;
import java.util.List;

/**
 * The merged numbers of one run as a machine-readable record, written to {@value #FILE}: the keys of the
 * issue's {@code summary.json} where they apply (plan, threads, transport, planned, successful, failed, notSent,
 * retries, wallSeconds, throughput, phases, latencyMs, server), plus every shard's own numbers. Immutable value.
 *
 * @param plan          --plan
 * @param threads       -t of the whole plan
 * @param transport     the shards' transport, or their transports joined by "+" when they differ
 * @param offeredRate   null: the closed model (kept for the summary's shape)
 * @param planned       requests the merged shards planned
 * @param successful    201s
 * @param failed        failed requests
 * @param notSent       requests never attempted
 * @param retries       attempts beyond the first
 * @param wallSeconds   first shard's start to last shard's end
 * @param throughput    successful / wallSeconds
 * @param phases        every phase over all shards
 * @param latencyMs     every attempt's latency, all shards
 * @param shardCount    N
 * @param missingShards K of the shards not merged (empty for a complete merge)
 * @param shards        each shard's own numbers
 * @param server        the server's count around the run, or null when not every shard read it
 */
public record MergedSummary(
        String plan,
        int threads,
        String transport,
        Double offeredRate,
        long planned,
        long successful,
        long failed,
        long notSent,
        long retries,
        double wallSeconds,
        double throughput,
        List<Phase> phases,
        Latency latencyMs,
        int shardCount,
        List<Integer> missingShards,
        List<Shard> shards,
        Server server) {

    public static final String FILE = "merged.json";

    /** One phase over all shards (durationSeconds: its earliest start to its latest end). */
    public record Phase(
            String name,
            int threads,
            long requests,
            long successful,
            long failed,
            double durationSeconds,
            double throughput) {}

    /** Latency statistics in ms. */
    public record Latency(double mean, double p50, double p90, double p99, double p999, double max) {

        static Latency of(LatencyStats s) {
            return s.count() == 0
                    ? null
                    : new Latency(
                            s.meanMillis(), s.p50Millis(), s.p90Millis(), s.p99Millis(), s.p999Millis(), s.maxMillis());
        }
    }

    /** One shard's own numbers. */
    public record Shard(
            String shard,
            String dir,
            long startEpochMillis,
            double wallSeconds,
            long planned,
            long successful,
            long failed,
            long notSent,
            long retries,
            double throughput,
            Latency latencyMs) {}

    /**
     * The server's stored-ride count: lowest reading before a shard started, highest after one ended.
     *
     * @param reconciled whether delta == successful (it holds when nothing else wrote and every shard read its
     *                   "before" ahead of every other shard's first ride)
     */
    public record Server(long storedBefore, long storedAfter, long delta, boolean reconciled) {}

    /** The record of {@code m}. */
    public static MergedSummary of(MergedRun m) {
        RunResult r = m.result();
        List<Phase> phases = new ArrayList<>();
        for (PhaseResult p : r.phases()) {
            phases.add(new Phase(
                    p.name(),
                    p.threads(),
                    p.planned(),
                    p.successful(),
                    p.failed(),
                    p.durationNanos() / 1e9,
                    p.throughputPerSecond()));
        }
        List<Shard> shards = new ArrayList<>();
        for (int i = 0; i < m.shards().size(); i++) {
            ShardRecord s = m.shards().get(i).record();
            ScopeStats st = m.shardStats().get(i);
            shards.add(new Shard(
                    s.shardLabel(),
                    m.shards().get(i).dir().toString(),
                    s.startEpochMillis(),
                    s.wallNanos() / 1e9,
                    s.planned(),
                    s.successful(),
                    s.failed(),
                    s.notSent(),
                    s.retries(),
                    st.throughputPerSecond(),
                    Latency.of(st.all())));
        }
        long[] counts = m.serverCounts();
        Server server = counts == null
                ? null
                : new Server(counts[0], counts[1], counts[1] - counts[0], counts[1] - counts[0] == r.successful());
        return new MergedSummary(
                r.planName(),
                r.numThreads(),
                String.join("+", m.transports()),
                null,
                r.planned(),
                r.successful(),
                r.failed(),
                r.notSent(),
                r.retries(),
                r.wallNanos() / 1e9,
                r.throughputPerSecond(),
                phases,
                Latency.of(m.metrics().run().all()),
                m.identity().shardCount(),
                m.missing(),
                shards,
                server);
    }
}
