package io.upic.liftride.client.prediction;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntToDoubleFunction;

/**
 * Predictions for a plan, made before the run: the naive Little's law N / W from the single-thread mean latency
 * W, and the closed-network model solved by MVA ({@link Prediction.Network}), both following the phase schedule
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
        return prediction(plan, Prediction.NAIVE, meanLatencyNanos, null, busy -> meanLatencyNanos);
    }

    /** The naive prediction from the baseline's W, or null when the baseline was skipped or had no success. */
    public static Prediction predict(LoadPlan plan, Baseline.Result b) {
        return b != null && b.successful() > 0 && b.meanLatencyNanos() > 0 ? predict(plan, b.meanLatencyNanos()) : null;
    }

    /**
     * The closed-network prediction: each request takes busy / X(busy) at the number of threads busy at that
     * moment, X solved by MVA for {@code network}.
     *
     * @param meanLatencyNanos W, > 0 (reported beside the network's inputs)
     */
    public static Prediction mva(LoadPlan plan, double meanLatencyNanos, Prediction.Network network) {
        double[] x = network.throughputs(plan.totalThreads());
        return prediction(plan, Prediction.MVA, meanLatencyNanos, network, busy -> busy / x[busy]);
    }

    private static Prediction prediction(
            LoadPlan plan,
            String model,
            double meanLatencyNanos,
            Prediction.Network network,
            IntToDoubleFunction response) {
        if (!(meanLatencyNanos > 0)) {
            throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        }
        double wall = simulate(plan, response);
        int n = plan.peakPhase().threads();
        double peakResponse = response.applyAsDouble(n);
        return new Prediction(
                model,
                meanLatencyNanos,
                network,
                n,
                n * 1e9 / peakResponse,
                peakResponse,
                wall,
                plan.totalRequests() * 1e9 / wall);
    }

    /**
     * The wall time of the phase schedule run with a response time R(busy threads), exactly: between two thread
     * finishes the number busy is constant. Finishes within a relative 1e-9 count as simultaneous; a phase with
     * trigger count k starts when the k-th thread of the previous one finishes.
     *
     * @param responseNanos R(busy threads) in nanoseconds, > 0 for every count >= 1
     */
    static double simulate(LoadPlan plan, IntToDoubleFunction responseNanos) {
        List<PlannedPhase> phases = plan.phases();
        boolean[] started = new boolean[phases.size()];
        int[] finished = new int[phases.size()];
        // {finish in request time, phase index}, earliest first, phase order on ties
        PriorityQueue<double[]> busy =
                new PriorityQueue<>((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
        double v = 0, t = 0;
        do {
            for (int k = 0; k < phases.size(); k++) { // start every phase whose trigger is met, in order
                if (!started[k]
                        && (k == 0
                                || (started[k - 1]
                                        && finished[k - 1] >= phases.get(k).startAfter()))) {
                    started[k] = true;
                    for (ThreadAssignment assignment : phases.get(k).assignments()) {
                        busy.add(new double[] {v + assignment.requests(), k});
                    }
                }
            }
            if (busy.isEmpty()) {
                return t;
            }
            double next = busy.peek()[0];
            double r = responseNanos.applyAsDouble(busy.size());
            if (!(r > 0)) {
                throw new IllegalArgumentException("response time <= 0 at " + busy.size() + " busy threads: " + r);
            }
            t += (next - v) * r;
            v = next;
            double tie = next + 1e-9 * Math.max(1.0, Math.abs(next));
            while (!busy.isEmpty() && busy.peek()[0] <= tie) {
                finished[(int) busy.poll()[1]]++;
            }
        } while (true);
    }

    /** (measured - predicted) / predicted in percent. */
    public static double differencePercent(double measured, double predicted) {
        return (measured - predicted) / predicted * 100.0;
    }
}
