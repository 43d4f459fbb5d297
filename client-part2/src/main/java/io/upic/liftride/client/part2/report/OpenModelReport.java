package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.engine.ScheduleLag;
import io.upic.liftride.client.part2.metrics.LatencyStats;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The open model (--rate) in client-part2's outputs: what "from intended" means, and the offered vs achieved
 * rate per phase for the reports. Adds nothing in the closed model. Stateless and thread-safe.
 */
public final class OpenModelReport {

    private static final Locale L = Locale.US;

    /** The difference between the two latencies, in one sentence a student understands. */
    public static final String WHY_TWO_LATENCIES = "*From intended* counts from the moment the schedule said a"
            + " request should be sent, *actual* from the moment it was really sent: when the server stalls, the"
            + " client's threads wait for answers and send their next requests late, so the actual latency only sees"
            + " the few requests that were caught in the stall, while a user who arrived on schedule waited for the"
            + " whole stall, which only the latency from the intended send shows (this is wrk2's coordinated-omission"
            + " correction).";

    private OpenModelReport() {}

    /** Whether {@code result} ran in the open model. */
    public static boolean isOpen(RunResult result) {
        return !result.phases().isEmpty() && result.phases().get(0).offeredPerSecond() != null;
    }

    /** The "Open model" heading of one run. */
    public static String heading(ReportModel.Run o) {
        return String.format(L, "Open model: --rate %s req/s", trim(o.offeredRate()));
    }

    /** What the open model's table means. */
    public static final String NOTE = "Achieved = requests done / the phase's duration. Send lag = how long after its"
            + " intended time a request was sent; a late thread sends at once and catches up, it never skips a"
            + " request. " + WHY_TWO_LATENCIES;

    /** The offered against the achieved rate per started phase; null in the closed model. */
    public static ReportTables.Table table(ReportModel.Run o) {
        RunResult r = o.result();
        if (!o.open() || !isOpen(r)) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        for (int k = 0; k < r.phases().size(); k++) {
            PhaseResult p = r.phases().get(k);
            if (!p.started()) {
                continue;
            }
            ScheduleLag.Snapshot lag = p.scheduleLag();
            ScopeStats s = o.metrics().phases().get(k);
            rows.add(List.of(String.format(
                            L,
                            "%s|%d|%,.1f|%,.1f|%.3f|%.3f|%.3f|%,d|%.3f|%s",
                            p.name(),
                            p.threads(),
                            p.offeredPerSecond(),
                            p.achievedPerSecond(),
                            p.achievedPerSecond() / p.offeredPerSecond(),
                            lag.meanNanos() / 1e6,
                            lag.maxNanos() / 1e6,
                            lag.lateSends(),
                            s.all().p99Millis(),
                            p99(s.fromIntended()))
                    .split("\\|", -1)));
        }
        List<Boolean> right = new ArrayList<>(Collections.nCopies(10, true));
        right.set(0, false);
        return new ReportTables.Table(
                List.of(
                        "phase",
                        "threads",
                        "offered (req/s)",
                        "achieved (req/s)",
                        "achieved / offered",
                        "send lag mean (ms)",
                        "send lag max (ms)",
                        "sends > 1 ms late",
                        "p99 actual (ms)",
                        "p99 from intended (ms)"),
                right,
                rows);
    }

    private static String p99(LatencyStats s) {
        return s == null || s.count() == 0 ? "" : String.format(L, "%.3f", s.p99Millis());
    }

    /** The rate as typed: "2,000" for a whole number. */
    public static String trim(Double v) {
        return v == Math.rint(v) ? String.format(L, "%,d", v.longValue()) : String.format(L, "%s", v);
    }
}
