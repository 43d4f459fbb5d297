package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The merge, after the run, of every worker's histograms and exact totals into statistics for the
 * whole run and for each phase, first attempts and all attempts. Immutable.
 *
 * @param run    the whole run
 * @param phases one entry per planned phase, in order
 */
public record RunMetrics(ScopeStats run, List<ScopeStats> phases) {

    public RunMetrics {
        phases = List.copyOf(phases);
    }

    /** Merges {@code recorders} (all joined) against the engine's account {@code result}. */
    public static RunMetrics merge(List<WorkerRecorder> recorders, RunResult result) {
        int n = result.phases().size();
        List<Histogram> phaseAll = new ArrayList<>(n);
        List<Histogram> phaseRetries = new ArrayList<>(n);
        List<WorkerRecorder.Totals> phaseAllTotals = new ArrayList<>(n);
        List<WorkerRecorder.Totals> phaseFirstTotals = new ArrayList<>(n);
        long[] phaseFailed = new long[n];
        List<Histogram> phaseIntended = new ArrayList<>(n);
        List<WorkerRecorder.Totals> phaseIntendedTotals = new ArrayList<>(n);
        boolean scheduled = false;
        for (int k = 0; k < n; k++) {
            phaseAll.add(LatencyHistograms.forMerge());
            phaseRetries.add(LatencyHistograms.forMerge());
            phaseAllTotals.add(new WorkerRecorder.Totals());
            phaseFirstTotals.add(new WorkerRecorder.Totals());
            phaseIntended.add(LatencyHistograms.forMerge());
            phaseIntendedTotals.add(new WorkerRecorder.Totals());
        }
        for (WorkerRecorder w : recorders) {
            int k = w.phaseIndex();
            phaseAll.get(k).add(w.allHistogram());
            if (w.retryHistogram() != null) {
                phaseRetries.get(k).add(w.retryHistogram());
            }
            phaseAllTotals.get(k).add(w.allTotals());
            phaseFirstTotals.get(k).add(w.firstTotals());
            phaseFailed[k] += w.failedAttempts();
            if (w.fromIntendedHistogram() != null) {
                scheduled = true;
                phaseIntended.get(k).add(w.fromIntendedHistogram());
                phaseIntendedTotals.get(k).add(w.fromIntendedTotals());
            }
        }
        // the open model records from the intended send too; a run whose workers never sent has none either way
        scheduled |= result.phases().stream().anyMatch(p -> p.offeredPerSecond() != null);
        Histogram runIntended = LatencyHistograms.forMerge();
        WorkerRecorder.Totals runIntendedTotals = new WorkerRecorder.Totals();

        Histogram runAll = LatencyHistograms.forMerge();
        Histogram runFirst = LatencyHistograms.forMerge();
        WorkerRecorder.Totals runAllTotals = new WorkerRecorder.Totals();
        WorkerRecorder.Totals runFirstTotals = new WorkerRecorder.Totals();
        long runFailed = 0;
        List<ScopeStats> phases = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            PhaseResult p = result.phases().get(k);
            Histogram all = phaseAll.get(k);
            Histogram first = all.copy();
            first.subtract(phaseRetries.get(k));
            phases.add(new ScopeStats(
                    p.name(),
                    k,
                    p.threads(),
                    p.started(),
                    p.durationNanos(),
                    p.successful(),
                    phaseFailed[k],
                    p.throughputPerSecond(),
                    LatencyStats.of(all, phaseAllTotals.get(k)),
                    LatencyStats.of(first, phaseFirstTotals.get(k)),
                    all,
                    first,
                    scheduled ? LatencyStats.of(phaseIntended.get(k), phaseIntendedTotals.get(k)) : null,
                    scheduled ? phaseIntended.get(k) : null));
            runIntended.add(phaseIntended.get(k));
            runIntendedTotals.add(phaseIntendedTotals.get(k));
            runAll.add(all);
            runFirst.add(first);
            runAllTotals.add(phaseAllTotals.get(k));
            runFirstTotals.add(phaseFirstTotals.get(k));
            runFailed += phaseFailed[k];
        }
        ScopeStats run = new ScopeStats(
                "run",
                -1,
                result.numThreads(),
                true,
                result.wallNanos(),
                result.successful(),
                runFailed,
                result.throughputPerSecond(),
                LatencyStats.of(runAll, runAllTotals),
                LatencyStats.of(runFirst, runFirstTotals),
                runAll,
                runFirst,
                scheduled ? LatencyStats.of(runIntended, runIntendedTotals) : null,
                scheduled ? runIntended : null);
        return new RunMetrics(run, phases);
    }

    /** Attempts the histograms recorded: must equal the engine's attempt count. */
    public long recordedAttempts() {
        return run.allHistogram().getTotalCount();
    }
}
