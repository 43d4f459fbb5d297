package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.util.List;

/**
 * The shards of one run joined: its {@link RunSummary} (the merged record), and the same numbers in the shapes the
 * report renderers take (account, histograms, time buckets), nanos from the first shard's start on the wall clock.
 * Immutable by convention: do not modify the buckets or histograms.
 *
 * @param name       the run folder's name ({@code t64})
 * @param shards     the shards merged, by K
 * @param missing    the K of N that were not given (empty unless the merge was told to allow it)
 * @param result     the total account; a phase runs from its first shard's start to its last shard's end
 * @param metrics    the total statistics: histograms added, exact totals combined
 * @param seconds    the time buckets of every shard's attempts on the merged clock
 * @param thresholds the {@code --threshold} checks on the merged numbers
 * @param summary    the merged summary.json
 */
public record MergedRun(
        String name,
        List<RunRecord> shards,
        List<Integer> missing,
        RunResult result,
        RunMetrics metrics,
        TimeBuckets seconds,
        ThresholdCheck thresholds,
        RunSummary summary) {

    /** {@link ExitCodes#FAILED} unless the summary is ok, worse when a threshold failed or a shard aborted. */
    public int exitCode() {
        int code = summary.ok() ? ExitCodes.OK : ExitCodes.FAILED;
        return thresholds.passed() && summary.abort() == null ? code : ExitCodes.worse(code, ThresholdCheck.EXIT_CODE);
    }

    /** N of the shards' --shard K/N. */
    public int count() {
        return shards.get(0).count();
    }
}
