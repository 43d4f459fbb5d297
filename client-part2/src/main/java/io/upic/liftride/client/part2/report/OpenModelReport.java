package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.Table;
import java.util.ArrayList;
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

    /** The "Open model" heading of one run. */
    public static String heading(ReportModel.Run o) {
        return o.ramp() != null
                ? "Open model: --ramp " + o.ramp().spec()
                : String.format(
                        L, "Open model: --rate %s req/s", trim(o.summary().offeredRate()));
    }

    /** One line per ramp stage not offered in full ({@link RampStages}); empty otherwise. */
    public static List<String> shortfalls(ReportModel.Run o) {
        List<String> lines = new ArrayList<>();
        for (RampStages.Stage s :
                o.ramp() == null ? List.<RampStages.Stage>of() : o.ramp().stages()) {
            String why = RampStages.shortfall(s);
            if (why != null) {
                lines.add(s.name() + " NOT OFFERED IN FULL: " + why + "; its latency measures the client as much as"
                        + " the server");
            }
        }
        return lines;
    }

    /** What the open model's table means. */
    public static final String NOTE = "Achieved = requests done / the phase's duration (a ramp's stage lasts at"
            + " least its DURATION; a stage is not offered in full below 0.97 of its offered rate or with a mean send"
            + " lag over 1 ms). Send lag = how long after its"
            + " intended time a request was sent; a late thread sends at once and catches up, it never skips a"
            + " request. " + WHY_TWO_LATENCIES;

    /**
     * The offered against the achieved rate per started phase ({@link ReportModel.Run#rates}; a ramp's from its
     * summary's stages), with each phase's p99 from the actual and from the intended send; null in the closed model.
     */
    public static Table table(ReportModel.Run o) {
        Table t = o.ramp() != null ? stages(o) : o.rates();
        if (t == null) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : t.rows()) {
            RunSummary.Phase p = o.phase(r.get(0));
            List<String> row = new ArrayList<>(r);
            row.add(p99(p == null ? null : p.latencyMs()));
            row.add(p99(p == null ? null : p.latencyFromIntendedMs()));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(t.header());
        header.addAll(List.of("p99 actual (ms)", "p99 from intended (ms)"));
        List<Boolean> right = new ArrayList<>(t.right());
        right.addAll(List.of(true, true));
        return new Table(header, right, rows);
    }

    /** A ramp's started stages as its summary has them (a merge's: the shards' rates added). */
    private static Table stages(ReportModel.Run o) {
        List<List<String>> rows = new ArrayList<>();
        for (RampStages.Stage s : o.ramp().stages()) {
            RunSummary.Phase p = o.phase(s.name());
            if (p != null && p.ran()) {
                rows.add(Table.cells(
                        "%s|%s->%s|%,.1f|%,.1f|%.3f|%.3f|%.3f|%,d",
                        s.name(),
                        RunTables.number(s.fromPerSecond()),
                        RunTables.number(s.toPerSecond()),
                        s.offeredPerSecond(),
                        s.achievedPerSecond(),
                        s.achievedOverOffered(),
                        s.sendLagMeanMs(),
                        s.sendLagMaxMs(),
                        s.lateSends()));
            }
        }
        return Table.of(
                "stage|rate (req/s)|offered (req/s)|achieved (req/s)|achieved / offered|send lag mean (ms)"
                        + "|send lag max (ms)|sends > 1 ms late",
                "lrrrrrrr",
                rows);
    }

    private static String p99(RunSummary.Latency l) {
        return l == null || l.p99() == null ? "" : String.format(L, "%.3f", l.p99());
    }

    /** The rate as typed: "2,000" for a whole number. */
    public static String trim(Double v) {
        return v == Math.rint(v) ? String.format(L, "%,d", v.longValue()) : String.format(L, "%s", v);
    }
}
