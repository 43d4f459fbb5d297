package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlanKeyTest {

    private static final PlanKey PLAN = new PlanKey("assignment", 8, 2000, 40, 10, "sdk", null, null, true);

    @Test
    void equalPlansHaveNoDifference() {
        assertEquals(List.of(), PLAN.differences(new PlanKey("assignment", 8, 2000, 40, 10, "sdk", null, null, true)));
    }

    @Test
    void eachDifferingFieldIsNamedByItsFlag() {
        PlanKey other = new PlanKey("spring", 16, 1000, 5, 20, "raw", 500.0, "1/2", false);
        assertEquals(
                List.of(
                        "--plan assignment vs spring",
                        "-t 8 vs 16",
                        "-s 2000 vs 1000",
                        "-l 40 vs 5",
                        "-m 10 vs 20",
                        "--transport sdk vs raw",
                        "--rate none (closed model) vs 500",
                        "--shard none vs 1/2",
                        "warm-up a baseline (warm JVM) vs none (--baseline 0: cold JVM)"),
                PLAN.differences(other));
    }

    @Test
    void thePlanIsDescribedAsFlags() {
        assertEquals("-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk (closed model)", PLAN.describe());
        assertEquals(
                "-t 8 -s 2000 -l 40 -m 10 --plan assignment --transport sdk --rate 2.5 --baseline 0",
                new PlanKey("assignment", 8, 2000, 40, 10, "sdk", 2.5, null, false).describe());
    }
}
