package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --ramp} stages of a merge: each stage's offered and achieved rates added over the shards (each shard
 * offers its share of the stage's requests), its send lag's mean weighted by each shard's sends, its max the
 * largest, its late sends added, and whether it was offered in full judged on those sums by the single run's rule
 * ({@link RampStages#shortfall(double, double, double)}). A shard that never started a stage offered it and achieved
 * nothing of it. Stateless and thread-safe.
 */
final class MergedRamp {

    private MergedRamp() {}

    /** The stages of {@code shards} (runs of one plan), or null when they ran without --ramp. */
    static RunSummary.RampOutcome of(List<ShardRun> shards) {
        RunSummary.RampOutcome ref = shards.get(0).summary().ramp();
        if (ref == null) {
            return null;
        }
        List<RampStages.Stage> stages = new ArrayList<>(ref.stages().size());
        for (int k = 0; k < ref.stages().size(); k++) {
            stages.add(stage(k, shards));
        }
        return new RunSummary.RampOutcome(ref.spec(), stages);
    }

    private static RampStages.Stage stage(int k, List<ShardRun> shards) {
        RampStages.Stage ref = shards.get(0).summary().ramp().stages().get(k);
        double offered = 0, achieved = 0, lagMillisSum = 0, lagMaxMs = 0;
        long sends = 0, late = 0;
        boolean started = false;
        for (ShardRun s : shards) {
            RampStages.Stage st = s.summary().ramp().stages().get(k);
            RunSummary.Phase p = s.summary().phases().get(k);
            offered += st.offeredPerSecond();
            if (p.durationSeconds() > 0) { // a stage that never started lasted 0 s
                long sent = p.successful() + p.failed(); // a request's first attempt is its scheduled send
                started = true;
                achieved += st.achievedPerSecond();
                lagMillisSum += st.sendLagMeanMs() * sent;
                sends += sent;
                lagMaxMs = Math.max(lagMaxMs, st.sendLagMaxMs());
                late += st.lateSends();
            }
        }
        double lagMeanMs = sends == 0 ? 0 : lagMillisSum / sends;
        return new RampStages.Stage(
                ref.name(),
                ref.fromPerSecond(),
                ref.toPerSecond(),
                ref.durationSeconds(),
                offered,
                achieved,
                offered == 0 ? 1 : achieved / offered,
                lagMeanMs,
                lagMaxMs,
                late,
                !started || RampStages.shortfall(offered, achieved, lagMeanMs * 1e6) == null);
    }
}
