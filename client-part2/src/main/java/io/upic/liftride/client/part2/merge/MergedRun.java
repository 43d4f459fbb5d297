package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.metrics.HistogramMetrics;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The shards of one run joined on one wall-clock timeline, in the shapes of a single run ({@link RunResult},
 * {@link RunMetrics}, {@link TimeBuckets}); nanos count from the first shard's start. Immutable by convention:
 * do not modify the buckets or histograms.
 *
 * @param name        the run folder's name ({@code t64})
 * @param shards      the shards merged, by K
 * @param missing     the K of N that were not given (empty unless the merge was told to allow it)
 * @param result      the total account; a phase runs from its first shard's start to its last shard's end
 * @param metrics     the total statistics: histograms added, exact totals combined
 * @param seconds     the time buckets of every shard's attempts on the merged clock
 * @param transports  the transports the shards used (one unless they differ)
 * @param thresholds  the {@code --threshold} checks on the merged numbers ({@link ThresholdCheck#NONE} without)
 */
public record MergedRun(
        String name,
        List<ShardRun> shards,
        List<Integer> missing,
        RunResult result,
        RunMetrics metrics,
        TimeBuckets seconds,
        List<String> transports,
        ThresholdCheck thresholds) {

    public MergedRun {
        shards = List.copyOf(shards);
        missing = List.copyOf(missing);
        transports = List.copyOf(transports);
    }

    /** This run with {@code thresholds} checked on its merged histograms and counts. */
    public MergedRun checked(List<Threshold> thresholds) {
        ThresholdCheck check = ThresholdCheck.of(thresholds, new HistogramMetrics(metrics, result));
        return new MergedRun(name, shards, missing, result, metrics, seconds, transports, check);
    }

    /** {@link ExitCodes#FAILED} unless {@link #ok()}, else a failed threshold's or an abort's code. */
    public int exitCode() {
        int code = ok() ? ExitCodes.OK : ExitCodes.FAILED;
        return thresholds.passed() && abort() == null ? code : ExitCodes.worse(code, ThresholdCheck.EXIT_CODE);
    }

    /** The first shard's abort, timed from the merged start; null when none aborted. */
    public RunSummary.Aborted abort() {
        long origin = result.startEpochMillis();
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

    /** The shard whose plan every shard shares. */
    public ShardRun identity() {
        return shards.get(0);
    }

    /** Whether the merge is "ok": the total run is, no shard is missing and the server's count does not disagree. */
    public boolean ok() {
        boolean requests = abort() == null
                ? result.ok()
                : result.requests().failed() == 0 && result.problems().isEmpty();
        return requests && missing.isEmpty() && !Boolean.FALSE.equals(server().reconciled());
    }

    /** The server's count: lowest before, highest after; unchecked if a shard did not read it. */
    public RunSummary.Server server() {
        long before = Long.MAX_VALUE, after = Long.MIN_VALUE;
        for (ShardRun s : shards) {
            var server = s.summary().server();
            if (server.ridesStoredBefore() == null || server.ridesStoredAfter() == null) {
                return new RunSummary.Server(false, null, null, null, null, "not every shard read the server's count");
            }
            before = Math.min(before, server.ridesStoredBefore());
            after = Math.max(after, server.ridesStoredAfter());
        }
        long delta = after - before;
        return new RunSummary.Server(true, before, after, delta, delta == result.successfulWrites(), null);
    }

    /** The open model's --rate the shards ran at, or null in the closed model. */
    public Double offeredRate() {
        return identity().summary().offeredRate();
    }
}
