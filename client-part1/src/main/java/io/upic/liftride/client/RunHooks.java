package io.upic.liftride.client;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.Workload;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.ProgressListener;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuDemand;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.prediction.WarmUp;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.ResultMetrics;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link Sweep} tells its caller as it goes, and how the caller extends its runs. Every method is called
 * on the thread that called {@link Sweep#run}; defaults do nothing.
 */
public interface RunHooks {

    /** No extension, nothing printed. */
    RunHooks NONE = new RunHooks() {};

    /** The warm-up starts: slices of -t {@code threads} until the JIT compiler has settled. */
    default void warmingUp(int threads) {}

    /** The warm-up ended ({@code w} null: nothing measured). */
    default void warmedUp(int threads, WarmUp.Result w) {}

    /** The server passed the pre-flight check; {@code config}'s baseline is measured next. */
    default void server(RunConfig config, String baseUrl, boolean embedded) {}

    /** The baseline was measured (not called without one). */
    default void baseline(Baseline.Result b) {}

    /** The prediction's inputs: the baseline (null: none) and the D of the first run's {@code requests}. */
    default void measured(Baseline.Result b, CpuDemand demand, long requests, long baselineNanos) {}

    /** The first run starts at --start-at, in {@code remaining}. */
    default void waiting(Duration remaining) {}

    /** A run is about to start, with what was predicted for it (null: no prediction, no model). */
    default void planned(Workload workload, LoadPlan plan, Prediction naive, Prediction model) {}

    /** The progress of the run of {@code config}; null for none. */
    default ProgressListener progress(RunConfig config) {
        return null;
    }

    /** The listener for one run, called before its clock starts, so time spent here is not in the wall time. */
    default AttemptListener listener(RunConfig config, LoadPlan plan) {
        return AttemptListener.NONE;
    }

    /** The run's measured metrics, before {@link #afterRun}; client-part1's counters by default. */
    default MetricSource metrics(RunReport report) {
        return new ResultMetrics(report.result());
    }

    /** The program's name in the JSON summary. */
    default String clientName() {
        return "client-part1";
    }

    /** A run finished; its thresholds are checked and its JSON summary built ({@link RunReport#summary()}). */
    default void afterRun(RunReport report) {}

    /** Every run finished and the thresholds are printed: what is printed here is the console's last word. */
    default void afterAll(List<RunReport> reports) {}
}
