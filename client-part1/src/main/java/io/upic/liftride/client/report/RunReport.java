package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.Abort;
import io.upic.liftride.client.threshold.ThresholdCheck;
import lombok.Builder;

/**
 * Everything known about one finished run, for printing and for client-part2's reports. Immutable.
 *
 * @param prediction     the naive prediction, or null without a usable baseline
 * @param model          the closed-network (MVA) prediction from W and D ({@link CpuDemand}), or null
 * @param processCpuNanos CPU time this JVM used during the run (the embedded server's too), or -1 if unknown
 * @param jitCpuNanos     of processCpuNanos, the JIT compiler threads' (0 if unknown): what the next run's D leaves out
 * @param thresholds      the --threshold checks of this run; null until checked (after the summary is printed)
 * @param summary         the machine-readable summary (with the thresholds); null until built
 * @param abort           why and when --abort-on-fail stopped the run; null when it did not
 */
@Builder(toBuilder = true)
public record RunReport(
        RunConfig config,
        LoadPlan plan,
        String serverUrl,
        boolean embeddedServer,
        Baseline.Result baseline,
        Prediction prediction,
        Prediction model,
        RunResult result,
        Reconciliation reconciliation,
        long processCpuNanos,
        long jitCpuNanos,
        int cores,
        ThresholdCheck thresholds,
        RunSummary summary,
        Abort abort) {

    /** Mean busy cores of this JVM over the run's wall time, or NaN if unknown. */
    public double busyCores() {
        return processCpuNanos < 0 || result.wallNanos() <= 0
                ? Double.NaN
                : (double) processCpuNanos / result.wallNanos();
    }

    /** CPU nanoseconds per HTTP attempt over the run, or NaN if unknown. */
    public double cpuNanosPerAttempt() {
        return processCpuNanos < 0 || result.requests().attempts() == 0
                ? Double.NaN
                : (double) processCpuNanos / result.requests().attempts();
    }

    /** Success for the exit code; a run --abort-on-fail stopped counts only its requests sent. */
    public boolean ok() {
        boolean requests = abort == null
                ? result.ok()
                : result.requests().failed() == 0 && result.problems().isEmpty();
        return requests && reconciliation.ok();
    }
}
