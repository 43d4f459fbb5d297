package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PlannedPhase;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntToDoubleFunction;

/**
 * Little's law predictions from a single-thread mean latency W, naive and CPU-bounded. Pure
 * functions; thread-safe.
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
 *
 * <p>The bounded prediction ({@link #bounded}) adds the capacity bound of operational analysis: with C
 * cores and D seconds of CPU per request, the CPU can complete at most C / D requests per second
 * (utilization law: U = X x D &lt;= C), so for N threads in a closed loop X(N) = min(N / W, C / D) and,
 * by Little's law, the response time R(N) = N / X(N) = max(W, N x D / C). Its wall time follows the
 * same schedule, but every request takes R(threads busy at that moment), counting the threads of
 * all the phases that overlap then; the schedule is simulated event by event (it is piecewise
 * linear between thread finishes, so the result is exact and deterministic).
 */
public final class LittlesLaw {

    private LittlesLaw() {}

    /**
     * The naive prediction for {@code plan}: the phase schedule simulated with every request taking W.
     *
     * @param meanLatencyNanos W, > 0
     */
    public static Prediction predict(LoadPlan plan, double meanLatencyNanos) {
        return prediction(plan, meanLatencyNanos, null);
    }

    /** The naive prediction from the baseline's W, or null when the baseline was skipped or had no success. */
    public static Prediction predict(LoadPlan plan, Baseline.Result baseline) {
        return usable(baseline) ? predict(plan, baseline.meanLatencyNanos()) : null;
    }

    /**
     * The bounded prediction from the baseline's W and D, or null when the baseline is not usable or its CPU
     * time is unknown.
     */
    public static Prediction bounded(LoadPlan plan, Baseline.Result baseline, int cores, CpuScope scope) {
        return usable(baseline) && baseline.boundCpuNanosPerRequest() > 0
                ? bounded(plan, baseline.meanLatencyNanos(), baseline.boundCpuNanosPerRequest(), cores, scope)
                : null;
    }

    private static boolean usable(Baseline.Result b) {
        return b != null && b.successful() > 0 && b.meanLatencyNanos() > 0;
    }

    /**
     * The bounded prediction for {@code plan}: the phase schedule simulated with every request taking
     * R(threads busy at that moment).
     *
     * @param meanLatencyNanos   W, > 0
     * @param cpuNanosPerRequest D, > 0
     * @param cores              C, >= 1
     * @param scope              whose CPU D is (for the labels)
     */
    public static Prediction bounded(
            LoadPlan plan, double meanLatencyNanos, double cpuNanosPerRequest, int cores, CpuScope scope) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores < 1: " + cores);
        }
        if (!(cpuNanosPerRequest > 0)) {
            throw new IllegalArgumentException("cpuNanosPerRequest <= 0: " + cpuNanosPerRequest);
        }
        return prediction(plan, meanLatencyNanos, new Prediction.CpuBound(cpuNanosPerRequest, cores, scope));
    }

    private static Prediction prediction(LoadPlan plan, double meanLatencyNanos, Prediction.CpuBound cpu) {
        if (!(meanLatencyNanos > 0)) {
            throw new IllegalArgumentException("meanLatencyNanos <= 0: " + meanLatencyNanos);
        }
        IntToDoubleFunction response = cpu == null
                ? busy -> meanLatencyNanos
                : busy -> Math.max(meanLatencyNanos, busy * cpu.cpuNanosPerRequest() / cpu.cores()); // R(busy)
        Schedule s = simulate(plan, response);
        int n = plan.peakPhase().threads();
        double peakResponse = response.applyAsDouble(n);
        return new Prediction(
                meanLatencyNanos,
                cpu,
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
     * Runs the phase schedule with a response time that depends on the number of threads busy at the
     * moment (of all phases together). Every busy thread then completes requests at the same rate,
     * 1 / R(busy), so in "request time" v (dv = dt / R(busy)) a thread that starts at v0 with r
     * requests ends at v0 + r whatever happens meanwhile. Between two thread finishes the number of
     * busy threads is constant, so real time advances by (v1 - v0) x R(busy): exact and
     * deterministic. Finishes within a relative 1e-9 of each other count as simultaneous. A phase
     * with a trigger count k starts when the k-th thread of the previous phase finishes (k = 0: with
     * the previous phase).
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
