package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What makes two runs runs of the same plan, from their summaries (a run after a baseline ran on a warm JVM, so
 * warm-up counts too). Immutable and thread-safe.
 *
 * @param plan        the phase plan's name
 * @param threads     -t
 * @param skiers      -s
 * @param lifts       -l
 * @param meanRuns    -m
 * @param transport   --transport ({@code sdk+raw} for a merge of shards that differ)
 * @param offeredRate --rate in requests per second; null in the closed model
 * @param mix         --mix as {@code operationId=weight,...} in the contract's order; null without
 * @param ramp        --ramp as given; null without
 * @param shard       {@code K/N} for one shard's run, null for a whole plan (a run or a merge)
 * @param warmed      whether a baseline ran before the run (its summary has a prediction): the JVM was warm
 */
public record PlanKey(
        String plan,
        int threads,
        int skiers,
        int lifts,
        int meanRuns,
        String transport,
        Double offeredRate,
        String mix,
        String ramp,
        String shard,
        boolean warmed) {

    /** The plan of {@code s}. */
    public static PlanKey of(RunSummary s) {
        return new PlanKey(
                s.plan(),
                s.threads(),
                s.skiers(),
                s.lifts(),
                s.meanRuns(),
                s.transport(),
                s.offeredRate(),
                mix(s),
                s.ramp() == null ? null : s.ramp().spec(),
                s.shard() == null ? null : s.shard().index() + "/" + s.shard().count(),
                s.prediction() != null);
    }

    /** The mix of {@code s} as {@code operationId=weight,...}, in the contract's order; null without --mix. */
    public static String mix(RunSummary s) {
        return s.operations() == null
                ? null
                : String.join(
                        ",",
                        s.operations().stream()
                                .map(o -> o.operation() + "=" + o.weight())
                                .toList());
    }

    /** Each field in which {@code other} differs, as {@code -t 8 vs 16}; empty when alike. */
    public List<String> differences(PlanKey other) {
        List<String> d = new ArrayList<>();
        add(d, "--plan", plan, other.plan);
        add(d, "-t", threads, other.threads);
        add(d, "-s", skiers, other.skiers);
        add(d, "-l", lifts, other.lifts);
        add(d, "-m", meanRuns, other.meanRuns);
        add(d, "--transport", transport, other.transport);
        add(d, "--rate", rate(offeredRate), rate(other.offeredRate));
        add(d, "--mix", none(mix), none(other.mix));
        add(d, "--ramp", none(ramp), none(other.ramp));
        add(d, "--shard", shard == null ? "none" : shard, other.shard == null ? "none" : other.shard);
        add(d, "warm-up", warmup(warmed), warmup(other.warmed));
        return d;
    }

    private static void add(List<String> d, String flag, Object a, Object b) {
        if (!Objects.equals(a, b)) {
            d.add(flag + " " + a + " vs " + b);
        }
    }

    private static String none(String flagValue) {
        return flagValue == null ? "none" : flagValue;
    }

    private static String warmup(boolean warmed) {
        return warmed ? "a baseline (warm JVM)" : "none (--baseline 0: cold JVM)";
    }

    private static String rate(Double r) {
        if (r == null) {
            return "none (closed model)";
        }
        return r == Math.rint(r) ? String.format(Locale.US, "%d", r.longValue()) : r.toString();
    }

    /** The plan as flags, e.g. {@code -t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk}. */
    public String describe() {
        return String.format(
                        Locale.US,
                        "-t %d -s %d -l %d -m %d --plan %s --transport %s",
                        threads,
                        skiers,
                        lifts,
                        meanRuns,
                        plan,
                        transport)
                + (mix == null ? "" : " --mix " + mix)
                + (ramp != null
                        ? " --ramp " + ramp
                        : offeredRate == null ? " (closed model)" : " --rate " + rate(offeredRate))
                + (shard == null ? "" : " --shard " + shard)
                + (warmed ? "" : " --baseline 0");
    }
}
