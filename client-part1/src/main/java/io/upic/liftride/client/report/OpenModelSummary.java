package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.ScheduleLag;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PlannedPhase;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The open model (--rate) on the terminal: the schedule before the run, offered vs achieved rate and how far
 * behind its schedule each phase fell after it. Prints nothing in the closed model. Stateless and thread-safe.
 */
public final class OpenModelSummary {

    private static final Locale L = Locale.US;

    private OpenModelSummary() {}

    /** The schedule each phase's threads follow, under the plan's table. */
    public static void printPlan(PrintStream out, RunConfig c, LoadPlan plan) {
        OpenModel m = c.openModel();
        if (m == null) {
            return;
        }
        out.printf(
                L,
                "Open model: --rate %s req/s in the peak phase; every thread sends every %.3f ms whatever the answers"
                        + " take (%s req/s per thread)%n",
                number(m.ratePerSecond()),
                m.intervalNanos() / 1e6,
                number(m.ratePerSecond() / m.peakThreads()));
        StringBuilder b = new StringBuilder("  offered:");
        for (PlannedPhase p : plan.phases()) {
            b.append(String.format(L, " %s %s req/s;", p.name(), number(m.offeredPerSecond(p.threads()))));
        }
        out.println(b.substring(0, b.length() - 1));
    }

    /** Offered vs achieved rate and the schedule's lag per phase, after a run in the open model. */
    public static void printRates(PrintStream out, RunResult r) {
        if (r.phases().isEmpty() || r.phases().get(0).offeredPerSecond() == null) {
            return;
        }
        out.printf(
                L,
                "  %-9s %14s %14s %9s %13s %13s %13s%n",
                "open model",
                "offered",
                "achieved",
                "achieved/",
                "send lag",
                "send lag",
                "sends late");
        out.printf(L, "  %-9s %14s %14s %9s %13s %13s %13s%n", "phase", "", "", "offered", "mean", "max", "> 1 ms");
        for (PhaseResult p : r.phases()) {
            if (!p.started()) {
                continue;
            }
            ScheduleLag.Snapshot lag = p.scheduleLag();
            out.printf(
                    L,
                    "  %-9s %,8.1f req/s %,8.1f req/s %9.3f %10.3f ms %10.3f ms %,13d%n",
                    p.name(),
                    p.offeredPerSecond(),
                    p.achievedPerSecond(),
                    p.achievedPerSecond() / p.offeredPerSecond(),
                    lag.meanNanos() / 1e6,
                    lag.maxNanos() / 1e6,
                    lag.lateSends());
        }
        out.println("  (achieved = requests done / the phase's duration; send lag = how long after its intended time"
                + " a request was sent: a late thread sends at once and catches up, it never skips)");
    }

    /** 3000 -> "3,000", 2.5 -> "2.5". */
    static String number(double v) {
        return v == Math.rint(v)
                ? String.format(L, "%,d", (long) v)
                : String.format(L, "%,.3f", v).replaceAll("0+$", "");
    }
}
