package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanDifferencesTest {

    private static final RunSummary PLAN = Summaries.run(8, 5000, 2, 0)
            .plan("assignment")
            .prediction(new RunSummary.PredictionInputs("naive N / W", 1, 1, 1, null, null, null))
            .build();

    @Test
    void equalPlansHaveNoDifference() {
        assertEquals(
                List.of(),
                RunComparison.differences(PLAN, PLAN.toBuilder().throughput(1).build()));
    }

    @Test
    void eachDifferingFieldIsNamedByItsFlag() {
        RunSummary other = PLAN.toBuilder()
                .plan("spring")
                .threads(16)
                .skiers(1000)
                .lifts(5)
                .meanRuns(20)
                .transport("raw")
                .offeredRate(500.0)
                .operations(List.of(row("writeNewLiftRide", 9), row("getSkierDayVertical", 1)))
                .ramp(ramp("0,500:10s"))
                .shard(new RunSummary.Shard(1, 2))
                .prediction(null)
                .build();
        assertEquals(
                List.of(
                        "--plan assignment vs spring",
                        "-t 8 vs 16",
                        "-s 2000 vs 1000",
                        "-l 40 vs 5",
                        "-m 10 vs 20",
                        "--transport sdk vs raw",
                        "--rate none (closed model) vs 500",
                        "--mix none vs writeNewLiftRide=9,getSkierDayVertical=1",
                        "--ramp none vs 0,500:10s",
                        "--shard none vs 1/2",
                        "warm-up a baseline (warm JVM) vs none (--baseline 0: cold JVM)"),
                RunComparison.differences(PLAN, other));
    }

    @Test
    void thePlanIsDescribedAsFlags() {
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk (closed model)",
                RunComparison.describe(PLAN));
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk --rate 2.5 --baseline 0",
                RunComparison.describe(
                        PLAN.toBuilder().offeredRate(2.5).prediction(null).build()));
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk --mix writeNewLiftRide=1 --ramp 0,50:5s",
                RunComparison.describe(PLAN.toBuilder()
                        .operations(List.of(row("writeNewLiftRide", 1)))
                        .ramp(ramp("0,50:5s"))
                        .build()));
    }

    private static RunSummary.OperationRow row(String op, int weight) {
        return new RunSummary.OperationRow(op, weight, 10, 10, 0, 0, 10, 2.0, Summaries.latency(1));
    }

    private static RunSummary.RampOutcome ramp(String spec) {
        return new RunSummary.RampOutcome(
                spec, List.of(new RampStages.Stage("stage1", 0, 50, 5, 25, 25, 1, 0.1, 0.2, 0, true)));
    }

    @Test
    void runsOfDifferentMixesOrRampsAreDifferentPlans() {
        RunSummary plain = Summaries.run(8, 5000, 2, 0).build();
        RunSummary mixed = Summaries.run(8, 5000, 2, 0)
                .operations(List.of(row("writeNewLiftRide", 90), row("getSkierDayVertical", 10)))
                .build();
        RunSummary reweighted = mixed.toBuilder()
                .operations(List.of(row("writeNewLiftRide", 50), row("getSkierDayVertical", 50)))
                .build();
        RunSummary ramped = plain.toBuilder().ramp(ramp("0,50:5s")).build();
        RunSummary steeper = plain.toBuilder().ramp(ramp("0,100:5s")).build();

        assertEquals("writeNewLiftRide=90,getSkierDayVertical=10", RunComparison.mix(mixed));
        assertEquals(
                List.of("--mix none vs writeNewLiftRide=90,getSkierDayVertical=10"),
                RunComparison.differences(plain, mixed));
        assertEquals(
                List.of(
                        "--mix writeNewLiftRide=90,getSkierDayVertical=10 vs writeNewLiftRide=50,getSkierDayVertical=50"),
                RunComparison.differences(mixed, reweighted));
        assertEquals(List.of("--ramp none vs 0,50:5s"), RunComparison.differences(plain, ramped));
        assertEquals(List.of("--ramp 0,50:5s vs 0,100:5s"), RunComparison.differences(ramped, steeper));
    }
}
