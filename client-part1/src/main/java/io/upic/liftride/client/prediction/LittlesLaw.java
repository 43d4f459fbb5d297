package io.upic.liftride.client.prediction;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntToDoubleFunction;

/**
 * Predictions for a plan, made before the run: the naive Little's law N / W from the single-thread mean latency
 * W, and the closed-network model solved by MVA ({@link ClosedNetwork}), both following the phase schedule
 * (docs/client.md describes the model). Pure functions; thread-safe.
 */
public final class LittlesLaw {

    private LittlesLaw() {}

    /**
     * The naive prediction for {@code plan}: the phase schedule simulated with every request taking W.
     *
     * @param meanLatencyNanos W, > 0
     */
    public static Prediction predict(LoadPlan plan, double meanLatencyNanos) {
        if (!(meanLatencyNanos > 0)) {
            throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        }
        return prediction(plan, Prediction.NAIVE, meanLatencyNanos, null, busy -> meanLatencyNanos);
    }

    /** The naive prediction from the baseline's W, or null when the baseline was skipped or had no success. */
    public static Prediction predict(LoadPlan plan, Baseline.Result baseline) {
        return usable(baseline) ? predict(plan, baseline.meanLatencyNanos()) : null;
    }

    private static boolean usable(Baseline.Result b) {
        return b != null && b.successful() > 0 && b.meanLatencyNanos() > 0;
    }

    /**
     * The closed-network prediction: each request takes busy / X(busy) at the number of threads busy at that
     * moment, X solved by MVA for {@code network}.
     *
     * @param meanLatencyNanos W, > 0 (reported beside the network's inputs)
     */
    public static Prediction mva(LoadPlan plan, double meanLatencyNanos, Prediction.Network network) {
        if (!(meanLatencyNanos > 0)) {
            throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        }
        double[] x = network.solved().throughputs(plan.totalThreads());
        return prediction(plan, Prediction.MVA, meanLatencyNanos, network, busy -> busy / x[busy]);
    }

    private static Prediction prediction(
            LoadPlan plan,
            String model,
            double meanLatencyNanos,
            Prediction.Network network,
            IntToDoubleFunction response) {
        Schedule s = simulate(plan, response);
        int n = plan.peakPhase().threads();
        double peakResponse = response.applyAsDouble(n);
        return new Prediction(
                model,
                meanLatencyNanos,
                network,
                n,
                n * 1e9 / peakResponse,
                peakResponse,
                s.wallNanos(),
                plan.totalRequests() * 1e9 / s.wallNanos(),
                s.phaseStartNanos(),
                s.phaseEndNanos());
    }

    /** When each phase starts and ends, and the wall time, from {@link #simulate}. */
    record Schedule(double wallNanos, List<Double> phaseStartNanos, List<Double> phaseEndNanos) {}

    /**
     * Runs the phase schedule with a response time R(busy threads), exactly: between two thread finishes the
     * number busy is constant. Finishes within a relative 1e-9 count as simultaneous; a phase with trigger
     * count k starts when the k-th thread of the previous one finishes.
     *
     * @param responseNanos R(busy threads) in nanoseconds, > 0 for every count >= 1
     */
    static Schedule simulate(LoadPlan plan, IntToDoubleFunction responseNanos) {
        Simulation sim = new Simulation(plan.phases());
        double v = 0, t = 0;
        sim.startDue(0, v, t);
        while (!sim.busy.isEmpty()) {
            double next = sim.busy.peek()[0];
            double r = responseNanos.applyAsDouble(sim.busy.size());
            if (!(r > 0)) {
                throw new IllegalArgumentException("response time <= 0 at " + sim.busy.size() + " busy threads: " + r);
            }
            t += (next - v) * r;
            v = next;
            sim.finishUntil(next + 1e-9 * Math.max(1.0, Math.abs(next)), t);
            sim.startDue(1, v, t);
        }
        return sim.schedule();
    }

    /** The state of one {@link #simulate} run: which phase started and ended when, and the busy threads. */
    private static final class Simulation {
        private final List<PlannedPhase> phases;
        private final double[] starts;
        private final double[] ends;
        private final boolean[] started;
        private final int[] finished;
        /** {finish in request time, phase index}, earliest first, phase order on ties. */
        private final PriorityQueue<double[]> busy =
                new PriorityQueue<>((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));

        Simulation(List<PlannedPhase> phases) {
            this.phases = phases;
            int count = phases.size();
            starts = new double[count];
            ends = new double[count];
            started = new boolean[count];
            finished = new int[count];
        }

        /** Finishes, at real time t, every busy thread due by request time {@code tie}. */
        void finishUntil(double tie, double t) {
            while (!busy.isEmpty() && busy.peek()[0] <= tie) {
                int k = (int) busy.poll()[1];
                if (++finished[k] == phases.get(k).threads()) {
                    ends[k] = t;
                }
            }
        }

        /** Starts, at (v, t), every phase from {@code from} on whose trigger is met, in order. */
        void startDue(int from, double v, double t) {
            for (int k = from; k < phases.size(); k++) {
                if (started[k]) {
                    continue;
                }
                boolean due = k == 0
                        || (started[k - 1] && finished[k - 1] >= phases.get(k).startAfter());
                if (!due) {
                    continue;
                }
                started[k] = true;
                starts[k] = t;
                ends[k] = t; // a phase without threads (a shard's empty share) ends as it starts
                for (ThreadAssignment assignment : phases.get(k).assignments()) {
                    busy.add(new double[] {v + assignment.requests(), k});
                }
            }
        }

        Schedule schedule() {
            double wall = 0;
            List<Double> s = new ArrayList<>(starts.length), e = new ArrayList<>(starts.length);
            for (int k = 0; k < starts.length; k++) {
                if (!started[k]) {
                    throw new IllegalStateException("phase " + phases.get(k).name() + " never started");
                }
                s.add(starts[k]);
                e.add(ends[k]);
                wall = Math.max(wall, ends[k]);
            }
            return new Schedule(wall, s, e);
        }
    }

    /** (measured - predicted) / predicted in percent. */
    public static double differencePercent(double measured, double predicted) {
        return (measured - predicted) / predicted * 100.0;
    }
}
