package io.upic.liftride.client.part2.metrics;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.report.RunSummary.Latency;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The merge, after the run, of every worker's histograms and exact totals into statistics for the
 * whole run and for each phase, first attempts and all attempts. Immutable.
 *
 * @param run        the whole run
 * @param phases     one entry per planned phase, in order
 * @param operations with --mix: each operation's attempt latencies, for the operations sent; empty without
 */
public record RunMetrics(ScopeStats run, List<ScopeStats> phases, Map<Operation, OperationLatency> operations) {

    public RunMetrics {
        phases = List.copyOf(phases);
        operations = Map.copyOf(operations);
    }

    /** Metrics without per-operation latencies. */
    public RunMetrics(ScopeStats run, List<ScopeStats> phases) {
        this(run, phases, Map.of());
    }

    /** One operation's attempt latencies merged over the workers (µs histogram, exact totals). */
    public record OperationLatency(Histogram histogram, Latency stats) {}

    private static Map<Operation, OperationLatency> operations(List<WorkerRecorder> recorders) {
        Map<Operation, OperationLatency> operations = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            Histogram h = LatencyHistograms.forMerge();
            WorkerRecorder.Totals totals = new WorkerRecorder.Totals();
            for (WorkerRecorder w : recorders) {
                if (w.operationHistogram(op) != null) {
                    h.add(w.operationHistogram(op));
                    totals.add(w.operationTotals(op));
                }
            }
            if (totals.count() > 0) {
                operations.put(op, new OperationLatency(h, LatencyHistograms.latency(h, totals)));
            }
        }
        return operations;
    }

    /** Merges {@code recorders} (all joined) against the engine's account {@code result}. */
    public static RunMetrics merge(List<WorkerRecorder> recorders, RunResult result) {
        int n = result.phases().size();
        List<Sums> phaseSums = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            phaseSums.add(new Sums());
        }
        boolean scheduled = false;
        for (WorkerRecorder w : recorders) {
            scheduled |= phaseSums.get(w.phaseIndex()).add(w);
        }
        // the open model records from the intended send too; a run whose workers never sent has none either way
        scheduled |= result.phases().stream().anyMatch(p -> p.offeredPerSecond() != null);
        Sums run = new Sums();
        List<ScopeStats> phases = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            PhaseResult p = result.phases().get(k);
            Sums sums = phaseSums.get(k);
            phases.add(sums.stats(p.name(), k, p.threads(), p.started(), p.durationNanos(), p.requests(), scheduled));
            run.add(sums);
        }
        return new RunMetrics(
                run.stats("run", -1, result.numThreads(), true, result.wallNanos(), result.requests(), scheduled),
                phases,
                operations(recorders));
    }

    /** The histograms and exact totals of one scope, added worker by worker or scope by scope. Not thread-safe. */
    private static final class Sums {
        private final Histogram all = LatencyHistograms.forMerge();
        private final Histogram retries = LatencyHistograms.forMerge();
        private final Histogram intended = LatencyHistograms.forMerge();
        private final WorkerRecorder.Totals allTotals = new WorkerRecorder.Totals();
        private final WorkerRecorder.Totals firstTotals = new WorkerRecorder.Totals();
        private final WorkerRecorder.Totals intendedTotals = new WorkerRecorder.Totals();

        /** Adds a worker's recordings; returns whether it recorded from the intended send (the open model). */
        boolean add(WorkerRecorder w) {
            all.add(w.allHistogram());
            if (w.retryHistogram() != null) {
                retries.add(w.retryHistogram());
            }
            allTotals.add(w.allTotals());
            firstTotals.add(w.firstTotals());
            if (w.fromIntendedHistogram() == null) {
                return false;
            }
            intended.add(w.fromIntendedHistogram());
            intendedTotals.add(w.fromIntendedTotals());
            return true;
        }

        void add(Sums s) {
            all.add(s.all);
            retries.add(s.retries);
            intended.add(s.intended);
            allTotals.add(s.allTotals);
            firstTotals.add(s.firstTotals);
            intendedTotals.add(s.intendedTotals);
        }

        /** The scope's statistics; first attempts are all attempts less the retries. */
        ScopeStats stats(
                String name,
                int index,
                int threads,
                boolean started,
                long durationNanos,
                Requests requests,
                boolean scheduled) {
            Histogram first = all.copy();
            first.subtract(retries);
            return new ScopeStats(
                    name,
                    index,
                    threads,
                    started,
                    durationNanos,
                    requests.successful(),
                    requests.throughputPerSecond(durationNanos),
                    LatencyHistograms.latency(all, allTotals),
                    LatencyHistograms.latency(first, firstTotals),
                    all,
                    first,
                    scheduled ? LatencyHistograms.latency(intended, intendedTotals) : null,
                    scheduled ? intended : null);
        }
    }

    /** Attempts the histograms recorded: must equal the engine's attempt count. */
    public long recordedAttempts() {
        return run.allHistogram().getTotalCount();
    }
}
