package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanKeyTest {

    private static final PlanKey PLAN = new PlanKey("assignment", 8, 2000, 40, 10, "sdk", null, null, null, null, true);

    @Test
    void equalPlansHaveNoDifference() {
        assertEquals(
                List.of(),
                PLAN.differences(new PlanKey("assignment", 8, 2000, 40, 10, "sdk", null, null, null, null, true)));
    }

    @Test
    void eachDifferingFieldIsNamedByItsFlag() {
        PlanKey other = new PlanKey(
                "spring",
                16,
                1000,
                5,
                20,
                "raw",
                500.0,
                "writeNewLiftRide=9,getSkierDayVertical=1",
                "0,500:10s",
                "1/2",
                false);
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
                PLAN.differences(other));
    }

    @Test
    void thePlanIsDescribedAsFlags() {
        assertEquals("-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk (closed model)", PLAN.describe());
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk --rate 2.5 --baseline 0",
                new PlanKey("assignment", 8, 2000, 40, 10, "sdk", 2.5, null, null, null, false).describe());
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk --mix writeNewLiftRide=1 --ramp 0,50:5s",
                new PlanKey("assignment", 8, 2000, 40, 10, "sdk", null, "writeNewLiftRide=1", "0,50:5s", null, true)
                        .describe());
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

        assertEquals(
                "writeNewLiftRide=90,getSkierDayVertical=10", PlanKey.of(mixed).mix());
        assertEquals(
                List.of("--mix none vs writeNewLiftRide=90,getSkierDayVertical=10"),
                PlanKey.of(plain).differences(PlanKey.of(mixed)));
        assertEquals(
                List.of(
                        "--mix writeNewLiftRide=90,getSkierDayVertical=10 vs writeNewLiftRide=50,getSkierDayVertical=50"),
                PlanKey.of(mixed).differences(PlanKey.of(reweighted)));
        assertEquals(List.of("--ramp none vs 0,50:5s"), PlanKey.of(plain).differences(PlanKey.of(ramped)));
        assertEquals(List.of("--ramp 0,50:5s vs 0,100:5s"), PlanKey.of(ramped).differences(PlanKey.of(steeper)));
    }

    @Test
    void compareRefusesDifferentMixesOrRampsAsItRefusesOtherUnlikePlans() throws Exception {
        RunSummary mixed = Summaries.run(8, 5000, 2, 0)
                .operations(List.of(row("writeNewLiftRide", 90), row("getSkierDayVertical", 10)))
                .build();
        RunSummary ramped = Summaries.run(8, 5000, 2, 0).ramp(ramp("0,50:5s")).build();
        for (RunSummary candidate : List.of(mixed, ramped)) {
            Side b = new Side(
                    "baseline",
                    List.of(new SummaryReader.Run(
                            java.nio.file.Path.of("b"),
                            Summaries.run(8, 5000, 2, 0).build())));
            Side c = new Side("candidate", List.of(new SummaryReader.Run(java.nio.file.Path.of("c"), candidate)));
            CompareInputException e =
                    assertThrows(CompareInputException.class, () -> RunComparison.of(b, c, NoiseBand.DEFAULT, false));
            assertTrue(e.getMessage().startsWith("refusing to compare unlike plans: --"), e.getMessage());
            RunComparison allowed = RunComparison.of(b, c, NoiseBand.DEFAULT, true);
            assertEquals(
                    1,
                    allowed.planDifferences().size(),
                    allowed.planDifferences().toString());
            CompareInputException within = assertThrows(
                    CompareInputException.class,
                    () -> Side.of("candidate", List.of(c.runs().get(0), b.runs().get(0))));
            assertTrue(within.getMessage().contains("are not of one plan"), within.getMessage());
        }
    }
}
