package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The model's prediction checked after the run: within {@link #TOLERANCE_PERCENT} of the measured wall time, or
 * which of its inputs moved. Each input is measured again from the run itself and the model re-solved with it: D
 * under load (this run's process CPU per attempt), the delay (the peak phase's latency beyond the model's time at
 * the CPU) and the phase schedule (the peak phase's own throughput right while the whole run's is not). Pure
 * functions; thread-safe.
 */
public final class PredictionCheck {

    /** How far the measured wall time may be from the model's before the check explains the miss. */
    public static final double TOLERANCE_PERCENT = 15.0;

    private static final Locale L = Locale.US;

    private PredictionCheck() {}

    /**
     * The lines explaining a miss of more than {@link #TOLERANCE_PERCENT}: a heading and one line per input that
     * moved by more than that, else the phase schedule; empty when the model held, or there is no model.
     */
    public static List<String> explain(RunReport report) {
        Prediction m = report.model();
        RunResult r = report.result();
        if (m == null || r.wallNanos() <= 0 || r.stopped()) {
            return List.of();
        }
        double wallMiss = LittlesLaw.differencePercent(r.wallNanos(), m.wallNanos());
        if (Math.abs(wallMiss) <= TOLERANCE_PERCENT) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(4);
        lines.add(String.format(
                L,
                "The model missed the wall time by %+.1f%% (more than %.0f%%); its inputs, measured again in this run:",
                wallMiss,
                TOLERANCE_PERCENT));
        Prediction.Network n = m.network();
        int moved = 0;
        double runD = report.cpuNanosPerAttempt();
        if (!Double.isNaN(runD)) {
            double dMove = LittlesLaw.differencePercent(runD, n.cpuNanosPerRequest());
            Prediction again = LittlesLaw.mva(
                    report.plan(),
                    m.meanLatencyNanos(),
                    new Prediction.Network(new ClosedNetwork(n.cores(), runD, n.delayNanos()), n.scope(), "this run"));
            boolean big = Math.abs(dMove) > TOLERANCE_PERCENT;
            moved += big ? 1 : 0;
            lines.add(String.format(
                    L,
                    "  D under load%s: calibrated %.1f us, this run %.1f us per attempt (%+.1f%%); with it the model"
                            + " says %.3f s (%+.1f%%)",
                    big ? " MOVED" : "",
                    n.cpuNanosPerRequest() / 1e3,
                    runD / 1e3,
                    dMove,
                    again.wallNanos() / 1e9,
                    LittlesLaw.differencePercent(r.wallNanos(), again.wallNanos())));
        }
        PhaseResult peak = r.phases().get(report.plan().peakPhase().index());
        if (peak.started() && peak.durationNanos() > 0 && peak.requests().finished() > 0) {
            moved += delay(lines, m, peak);
            double xMiss = LittlesLaw.differencePercent(peak.throughputPerSecond(), m.peakThroughputPerSecond());
            if (moved == 0 && Math.abs(xMiss) <= TOLERANCE_PERCENT) {
                lines.add(String.format(
                        L,
                        "  the phase schedule: the peak phase ran at %,.0f req/s, %+.1f%% from the model's X(%d), but"
                                + " the phases overlapped otherwise than simulated (ends measured %s, predicted %s)",
                        peak.throughputPerSecond(),
                        xMiss,
                        m.peakThreads(),
                        ends(r),
                        predictedEnds(m)));
            }
        }
        return lines;
    }

    /**
     * The delay's line: the peak phase's mean latency beyond the model's time at the CPU (a thread's cycle n / X(n)
     * minus Z) is the delay this run saw; 1 when it moved by more than the tolerance.
     */
    private static int delay(List<String> lines, Prediction m, PhaseResult peak) {
        Prediction.Network n = m.network();
        double cpuResidence = m.peakResponseNanos() - n.delayNanos();
        double runDelay = Math.max(0, peak.meanLatencyNanos() - cpuResidence);
        double move = n.delayNanos() > 0 ? LittlesLaw.differencePercent(runDelay, n.delayNanos()) : Double.NaN;
        boolean big = Double.isNaN(move)
                ? runDelay > 0.15 * m.peakResponseNanos()
                : Math.abs(move) > TOLERANCE_PERCENT && Math.abs(runDelay - n.delayNanos()) > 0.05 * cpuResidence;
        lines.add(String.format(
                L,
                "  W (the delay Z = W - D)%s: %.3f ms from the baseline; the peak phase's mean latency %.3f ms leaves"
                        + " %.3f ms beyond the model's %.3f ms at the CPU",
                big ? " MOVED" : "",
                n.delayNanos() / 1e6,
                peak.meanLatencyNanos() / 1e6,
                runDelay / 1e6,
                cpuResidence / 1e6));
        return big ? 1 : 0;
    }

    private static String ends(RunResult r) {
        List<String> s = new ArrayList<>();
        for (PhaseResult p : r.phases()) {
            s.add(p.started() ? String.format(L, "%.2f", (p.endNanos() - r.startNanos()) / 1e9) : "-");
        }
        return String.join("/", s) + " s";
    }

    private static String predictedEnds(Prediction m) {
        List<String> s = new ArrayList<>();
        for (double e : m.phaseEndNanos()) {
            s.add(String.format(L, "%.2f", e / 1e9));
        }
        return String.join("/", s) + " s";
    }
}
