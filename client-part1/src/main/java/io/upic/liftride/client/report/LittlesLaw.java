package io.upic.liftride.client.report;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.Work;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Little's law predictions from a single-thread mean latency W. Pure functions; thread-safe.
 *
 * <p>Model: a closed loop of N threads, each always waiting on one request, has N requests in flight,
 * so throughput X = N / W if every request still takes W under load (no queueing, no CPU contention).
 * That makes these predictions upper bounds on throughput (lower bounds on wall time): on a machine
 * whose cores are shared with the server, latency grows with N and the measured figures fall short.
 *
 * <p>Wall time respects the phase schedule: every request of a thread takes W, so a thread with r
 * requests runs r x W; phase 1 starts at 0; each later phase starts when the k-th thread of the
 * previous phase finishes (k = the plan's trigger count; threads with fewer requests finish first);
 * the predicted wall time is when the last thread of any phase finishes.
 */
public final class LittlesLaw {

    private LittlesLaw() {
    }

    /**
     * The predictions for {@code plan}.
     *
     * @param meanLatencyNanos W, > 0
     */
    public static Prediction predict(LoadPlan plan, double meanLatencyNanos) {
        if (!(meanLatencyNanos > 0)) throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        List<PlannedPhase> phases = plan.phases();
        List<Double> starts = new ArrayList<>(phases.size());
        List<Double> ends = new ArrayList<>(phases.size());
        double start = 0;
        double wall = 0;
        for (int k = 0; k < phases.size(); k++) {
            PlannedPhase phase = phases.get(k);
            if (k > 0) {
                double[] previousFinishes = finishes(phases.get(k - 1), starts.get(k - 1), meanLatencyNanos);
                int trigger = phase.startAfter();
                start = trigger == 0 ? starts.get(k - 1) : previousFinishes[trigger - 1];
            }
            double[] f = finishes(phase, start, meanLatencyNanos);
            double end = f[f.length - 1];
            starts.add(start);
            ends.add(end);
            wall = Math.max(wall, end);
        }
        PlannedPhase peak = plan.peakPhase();
        return new Prediction(meanLatencyNanos, peak.threads(), peakThroughput(peak.threads(), meanLatencyNanos),
                wall, plan.totalRequests() * 1e9 / wall, starts, ends);
    }

    /** X = N / W in requests per second. */
    public static double peakThroughput(int threads, double meanLatencyNanos) {
        if (threads < 1) throw new IllegalArgumentException("threads < 1: " + threads);
        if (!(meanLatencyNanos > 0)) throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        return threads * 1e9 / meanLatencyNanos;
    }

    /** (measured - predicted) / predicted in percent. */
    public static double differencePercent(double measured, double predicted) {
        return (measured - predicted) / predicted * 100.0;
    }

    /** Every thread's finish time in the phase, ascending. */
    private static double[] finishes(PlannedPhase phase, double start, double w) {
        double[] f = new double[phase.threads()];
        int i = 0;
        for (Work work : phase.work()) f[i++] = start + work.requests() * w;
        Arrays.sort(f);
        return f;
    }
}
