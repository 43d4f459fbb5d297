package io.upic.liftride.client;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.ResultMetrics;
import java.util.List;

/**
 * How client-part2 (or a test) extends a {@link ClientRunner} run without copying it: a listener per
 * run, and callbacks after each run and after a sweep. All methods are called on the thread that
 * called {@link ClientRunner#run}; default methods do nothing.
 */
public interface RunHooks {

    /** No extension: client-part1's own behaviour. */
    RunHooks NONE = new RunHooks() {};

    /**
     * The listener for the run of {@code config}: called once per run, before the run's clock starts, so time
     * spent here (opening the listener's files, say) is not in the run's wall time.
     */
    default AttemptListener listener(RunConfig config, LoadPlan plan) {
        return AttemptListener.NONE;
    }

    /**
     * The finished run's measured metrics, read by its printed summary, its thresholds and its JSON summary: called
     * once per run before its summary is printed and {@link #afterRun}. client-part1's counters by default.
     */
    default MetricSource metrics(RunReport report) {
        return new ResultMetrics(report.result());
    }

    /** The program's name in the JSON summary. */
    default String clientName() {
        return "client-part1";
    }

    /**
     * A run finished and its summary was printed; its thresholds are checked and its JSON summary built
     * ({@link RunReport#summary()}).
     */
    default void afterRun(RunReport report) {}

    /**
     * Every run of the command finished (one element unless -t had a list) and the thresholds are printed: what is
     * printed here is the console's last word.
     */
    default void afterAll(List<RunReport> reports) {}
}
