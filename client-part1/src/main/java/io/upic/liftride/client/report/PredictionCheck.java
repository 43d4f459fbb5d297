package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.prediction.ClosedNetwork;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
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
     * The lines explaining a miss of more than {@link #TOLERANCE_PERCENT}: a heading, one line per input measured
     * again in the run with the wall time the model gives with it, and which input moved (the one whose
     * re-solve comes closest to the measurement), else the phase schedule; empty when the model held, or there is
     * no model.
     */
    public static List<String> explain(RunReport report) {
        Miss miss = Miss.of(report);
        if (miss == null) {
            return List.of();
        }
        List<String> lines = new ArrayList<>(5);
        lines.add(String.format(
                L,
                "The model missed the wall time by %+.1f%% (more than %.0f%%); its inputs, measured again in this run:",
                miss.wall(),
                TOLERANCE_PERCENT));
        Prediction m = report.model();
        Prediction.Network n = m.network();
        if (!Double.isNaN(miss.withRunD())) {
            lines.add(String.format(
                    L,
                    "  D under load: the model's %.1f us, this run %.1f us per attempt (%+.1f%%; of which the JIT"
                            + " compiler threads %.1f us); with it the model is off by %+.1f%%",
                    n.cpuNanosPerRequest() / 1e3,
                    report.cpuNanosPerAttempt() / 1e3,
                    LittlesLaw.differencePercent(report.cpuNanosPerAttempt(), n.cpuNanosPerRequest()),
                    report.jitNanosPerAttempt() / 1e3,
                    miss.withRunD()));
        }
        if (!Double.isNaN(miss.withRunZ())) {
            lines.add(String.format(
                    L,
                    "  the delay Z: %.3f ms in the model, %.3f ms in this run (its mean latency %.3f ms less"
                            + " the model's %.3f ms at the CPU); with it the model is off by %+.1f%%",
                    n.delayNanos() / 1e6,
                    miss.runZ() / 1e6,
                    report.result().meanLatencyNanos() / 1e6,
                    miss.cpuResidence() / 1e6,
                    miss.withRunZ()));
        }
        lines.add("  => " + verdict(report, m, miss));
        return lines;
    }

    /**
     * One line for a miss of more than {@link #TOLERANCE_PERCENT}: that the prediction cannot be trusted here, by
     * how much it missed and which input moved; null when the model held, or there is no model.
     */
    public static String brief(RunReport report) {
        Miss miss = Miss.of(report);
        if (miss == null) {
            return null;
        }
        String moved = switch (miss.moved()) {
            case D ->
                jitPart(report, report.model()).isEmpty()
                        ? "D (CPU per request) moved"
                        : "D moved: the JIT still compiling";
            case Z -> "the delay moved";
            case SCHEDULE -> "the phase schedule moved";
        };
        return String.format(
                L,
                "The prediction cannot be trusted here: it missed the wall time by %+.1f%% (over %.0f%%): %s",
                miss.wall(),
                TOLERANCE_PERCENT,
                moved);
    }

    /** Which input of the model the run moved. */
    private enum Input {
        D,
        Z,
        SCHEDULE
    }

    /**
     * A miss: the wall time's difference from the model in %, and again with the run's own D and delay.
     *
     * @param withRunD     the miss with this run's D, NaN when its CPU is unknown
     * @param runZ         this run's delay: its mean latency less the model's time at the CPU
     * @param withRunZ     the miss with this run's delay, NaN without a latency
     * @param cpuResidence the model's time at the CPU in the peak phase
     */
    private record Miss(double wall, double withRunD, double runZ, double withRunZ, double cpuResidence) {

        /** The miss of {@code report}'s model, or null when it held or there is none. */
        static Miss of(RunReport report) {
            Prediction m = report.model();
            RunResult r = report.result();
            if (m == null || r.wallNanos() <= 0 || r.stopped()) {
                return null;
            }
            double wall = LittlesLaw.differencePercent(r.wallNanos(), m.wallNanos());
            if (Math.abs(wall) <= TOLERANCE_PERCENT) {
                return null;
            }
            Prediction.Network n = m.network();
            double runD = report.cpuNanosPerAttempt();
            double dMiss = !Double.isNaN(runD) && runD > 0 ? missWith(report, runD, n.delayNanos()) : Double.NaN;
            double cpuResidence = m.peakResponseNanos() - n.delayNanos();
            double runZ = Math.max(0, r.meanLatencyNanos() - cpuResidence);
            double zMiss = r.meanLatencyNanos() > 0 ? missWith(report, n.cpuNanosPerRequest(), runZ) : Double.NaN;
            return new Miss(wall, dMiss, runZ, zMiss, cpuResidence);
        }

        /** The input whose re-solve comes closest to the measurement when it halves the miss, else the schedule. */
        Input moved() {
            double d = Double.isNaN(withRunD) ? Double.POSITIVE_INFINITY : Math.abs(withRunD);
            double z = Double.isNaN(withRunZ) ? Double.POSITIVE_INFINITY : Math.abs(withRunZ);
            if (Math.min(d, z) > Math.abs(wall) / 2) {
                return Input.SCHEDULE;
            }
            return d <= z ? Input.D : Input.Z;
        }
    }

    /** Which input moved, with its numbers. */
    private static String verdict(RunReport report, Prediction m, Miss miss) {
        switch (miss.moved()) {
            case D:
                return "what moved: D under load (the CPU per request differed from the model's" + jitPart(report, m)
                        + ")";
            case Z:
                return "what moved: W (the delay differed from the single-thread baseline's)";
            default:
                break;
        }
        RunResult r = report.result();
        PhaseResult peak = r.phases().get(report.plan().peakPhase().index());
        String rate = peak.started() && peak.durationNanos() > 0
                ? String.format(
                        L,
                        "the peak phase ran at %,.0f req/s, %+.1f%% from the model's X(%d); ",
                        peak.throughputPerSecond(),
                        LittlesLaw.differencePercent(peak.throughputPerSecond(), m.peakThroughputPerSecond()),
                        m.peakThreads())
                : "";
        return "what moved: neither input alone; the phase schedule: " + rate + "phases ended at " + ends(r)
                + ", predicted " + predictedEnds(m);
    }

    /**
     * When the JIT compiler's CPU in the run is most of D's rise: that the JVM was still compiling (its earlier
     * runs had not warmed what this run ran); else nothing.
     */
    private static String jitPart(RunReport report, Prediction m) {
        double rise = report.cpuNanosPerAttempt() - m.network().cpuNanosPerRequest();
        double jit = report.jitNanosPerAttempt();
        return rise > 0 && jit >= rise / 2
                ? String.format(
                        L, ": the JIT compiler's %.1f us of the %.1f us more: still compiling", jit / 1e3, rise / 1e3)
                : "";
    }

    /** The measured wall time's difference in % from the model re-solved with demand {@code d} and delay {@code z}. */
    private static double missWith(RunReport report, double d, double z) {
        Prediction m = report.model();
        Prediction.Network n = m.network();
        Prediction again = LittlesLaw.mva(
                report.plan(),
                m.meanLatencyNanos(),
                new Prediction.Network(new ClosedNetwork(n.cores(), d, z), n.scope(), "this run"));
        return LittlesLaw.differencePercent(report.result().wallNanos(), again.wallNanos());
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
