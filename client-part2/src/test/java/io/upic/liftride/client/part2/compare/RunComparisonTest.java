package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.compare.MetricRow.Spread;
import io.upic.liftride.client.part2.compare.MetricRow.Verdict;
import io.upic.liftride.client.part2.compare.RunComparison.Side;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.threshold.Metric;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunComparisonTest {

    private static int n;

    private static RunRecord run(RunSummary s) throws Exception {
        // the reader's own mapping, from the real writer's JSON
        Path dir = java.nio.file.Files.createTempDirectory("compare-test-" + n++);
        return RunRecord.read(Summaries.write(dir, s)).get(0);
    }

    private static Side side(String name, RunSummary... summaries) throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        for (RunSummary s : summaries) {
            runs.add(run(s));
        }
        return Side.of(name, runs);
    }

    private static MetricRow row(RunComparison c, String scope, Metric m) {
        return c.scopes().stream()
                .filter(s -> s.name().equals(scope))
                .flatMap(s -> s.rows().stream())
                .filter(r -> r.metric().equals(m))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theSameNumbersAreNoRegression() throws Exception {
        RunComparison c = RunComparison.of(
                side("baseline", Summaries.run(8, 5000, 2, 0).build()),
                side("candidate", Summaries.run(8, 5000, 2, 0).build()),
                NoiseBand.DEFAULT,
                false);
        assertEquals(0, c.exitCode());
        assertTrue(
                c.verdictLine().startsWith("no regression past the band; CAUTION: one run on each side"),
                c.verdictLine());
        assertEquals(
                List.of("run", "startup", "peak"),
                c.scopes().stream().map(RunComparison.Scope::name).toList());
        assertEquals(8, c.scopes().get(0).rows().size(), "closed model: no intended rows");
    }

    /** A mixed run whose GET answered in {@code getMs} (p99 twice that) at {@code getPerSecond}. */
    private static RunSummary mixed(double getMs, double getPerSecond, long getFailed) {
        return Summaries.run(8, 5000, 2, 0)
                .operations(List.of(
                        new RunSummary.OperationRow(
                                "writeNewLiftRide", 90, 18_000, 18_000, 0, 0, 18_000, 3600, Summaries.latency(2)),
                        new RunSummary.OperationRow(
                                "getSkierDayVertical",
                                10,
                                2_000,
                                2_000 - getFailed,
                                getFailed,
                                0,
                                2_000,
                                getPerSecond,
                                Summaries.latency(getMs))))
                .build();
    }

    @Test
    void eachOperationOfTheMixIsComparedOnItsOwnRowsWithoutGatingTheVerdict() throws Exception {
        RunComparison c = RunComparison.of(
                side("baseline", mixed(1, 400, 0)), side("candidate", mixed(1.5, 300, 7)), NoiseBand.DEFAULT, false);
        assertEquals(
                List.of("run", "startup", "peak", "writeNewLiftRide", "getSkierDayVertical"),
                c.scopes().stream().map(RunComparison.Scope::name).toList());
        RunComparison.Scope get = c.scopes().get(4);
        assertEquals("Operation getSkierDayVertical", get.heading());
        assertEquals(
                MetricRow.ACTUAL, get.rows().stream().map(MetricRow::metric).toList());
        MetricRow p99 = row(c, "getSkierDayVertical", Metric.percentile(99));
        assertEquals(2.0, p99.baseline().median());
        assertEquals(3.0, p99.candidate().median());
        assertEquals(0.5, p99.change(), 1e-12);
        assertEquals(Verdict.WORSE, p99.verdict());
        assertEquals(-0.25, row(c, "getSkierDayVertical", Metric.THROUGHPUT).change(), 1e-12);
        assertEquals(
                7.0, row(c, "getSkierDayVertical", Metric.FAILED).candidate().median());
        assertEquals(
                Verdict.WITHIN,
                row(c, "writeNewLiftRide", Metric.percentile(99)).verdict());
        assertEquals(0, c.exitCode(), "operations, like phases, show where; the whole run decides");
        var table = c.model().tables().get(4);
        assertEquals("Operation getSkierDayVertical", table.header().get(0));
    }

    @Test
    void anOperationOnlyOneSideSentHasNoRows() throws Exception {
        RunComparison c = RunComparison.of(
                side("baseline", mixed(1, 400, 0)),
                side("candidate", Summaries.run(8, 5000, 2, 0).build()),
                NoiseBand.DEFAULT,
                true);
        assertEquals(
                List.of("run", "startup", "peak"),
                c.scopes().stream().map(RunComparison.Scope::name).toList());
    }

    @Test
    void aSlowerCandidateRegressesAndTheLineNamesTheMetric() throws Exception {
        RunComparison c = RunComparison.of(
                side("baseline", Summaries.run(8, 5000, 2, 0).build()),
                side("candidate", Summaries.run(8, 4800, 3, 0).build()),
                NoiseBand.parse(List.of("10%", "mean=off,p50=off,p90=off,p99.9=off,max=off")),
                false);
        assertEquals(3, c.exitCode());
        assertEquals(
                List.of(Metric.percentile(99)),
                c.regressions().stream().map(MetricRow::metric).toList());
        assertTrue(
                c.verdictLine().startsWith("REGRESSION: p99 +50.0% (4.000 -> 6.000 ms, band 10%); CAUTION"),
                c.verdictLine());
        assertEquals(Verdict.WORSE, row(c, "peak", Metric.percentile(99)).verdict(), "phases are not gated");
    }

    @Test
    void unlikePlansAreRefusedNamingEachDifferenceUnlessAllowed() throws Exception {
        Side base = side("baseline", Summaries.run(8, 5000, 2, 0).build());
        Side cand =
                side("candidate", Summaries.run(16, 5000, 2, 0).transport("raw").build());
        CompareInputException e =
                assertThrows(CompareInputException.class, () -> RunComparison.of(base, cand, NoiseBand.DEFAULT, false));
        assertEquals(
                "refusing to compare unlike plans: -t 8 vs 16, --transport sdk vs raw (baseline vs candidate;"
                        + " --allow-different-plans compares them anyway)",
                e.getMessage());
        RunComparison c = RunComparison.of(base, cand, NoiseBand.DEFAULT, true);
        assertEquals(List.of("-t 8 vs 16", "--transport sdk vs raw"), c.planDifferences());
        assertEquals(0, c.exitCode());
    }

    @Test
    void runsOfOneSideMustShareAPlan() throws Exception {
        CompareInputException e = assertThrows(
                CompareInputException.class,
                () -> side(
                        "baseline",
                        Summaries.run(8, 1, 1, 0).build(),
                        Summaries.run(16, 1, 1, 0).build()));
        assertTrue(e.getMessage().startsWith("the baseline runs are not of one plan: "), e.getMessage());
        assertTrue(e.getMessage().contains(" differ in -t 8 vs 16"), e.getMessage());
    }

    @Test
    void severalRunsPerSideCompareTheirMedians() throws Exception {
        RunComparison c = RunComparison.of(
                side(
                        "baseline",
                        Summaries.run(8, 5000, 2, 0).build(),
                        Summaries.run(8, 1000, 2, 0).build(), // one outlier does not move the median
                        Summaries.run(8, 5200, 2, 0).build()),
                side(
                        "candidate",
                        Summaries.run(8, 4900, 2, 0).build(),
                        Summaries.run(8, 5100, 2, 0).build()),
                NoiseBand.parse(List.of("3%")),
                false);
        MetricRow t = row(c, "run", Metric.THROUGHPUT);
        assertEquals(new Spread(5000, 1000, 5200, 3), t.baseline());
        assertEquals(new Spread(5000, 4900, 5100, 2), t.candidate());
        assertEquals(Verdict.WITHIN, t.verdict());
    }

    @Test
    void theVerdictLineGivesTheMediansOfSeveralRuns() throws Exception {
        RunComparison c = RunComparison.of(
                side(
                        "baseline",
                        Summaries.run(8, 5000, 2, 0).build(),
                        Summaries.run(8, 4000, 2, 0).build(),
                        Summaries.run(8, 6000, 2, 0).build()),
                side(
                        "candidate",
                        Summaries.run(8, 2500, 2, 0).build(),
                        Summaries.run(8, 2000, 2, 0).build()),
                NoiseBand.DEFAULT,
                false);
        assertTrue(
                c.verdictLine().startsWith("REGRESSION: throughput -55.0% (5,000.0 -> 2,250.0 req/s, band 10%)"),
                c.verdictLine());
    }

    @Test
    void openModelRunsAddTheIntendedRows() throws Exception {
        RunSummary.RunSummaryBuilder b = Summaries.run(8, 500, 2, 0).offeredRate(500.0);
        RunComparison c = RunComparison.of(
                side("baseline", b.latencyFromIntendedMs(Summaries.latency(2)).build()),
                side("candidate", b.latencyFromIntendedMs(Summaries.latency(5)).build()),
                NoiseBand.parse(List.of("10%", "mean=off,p50=off,p90=off,p99=off,p99.9=off,max=off")),
                false);
        assertEquals(14, c.scopes().get(0).rows().size());
        assertEquals(
                List.of(
                        "intended.mean",
                        "intended.p50",
                        "intended.p90",
                        "intended.p99",
                        "intended.p99.9",
                        "intended.max"),
                c.regressions().stream().map(r -> r.metric().label()).toList());
        assertEquals(
                Verdict.NOT_MEASURED,
                row(c, "peak", Metric.MEAN.fromIntended()).verdict(),
                "these phases carry no intended latency");
    }

    private static final RunSummary.PredictionInputs PREDICTION =
            new RunSummary.PredictionInputs("MVA closed network", 4.0, 5000, 1e6, 2e5, 2, 8e5);

    @Test
    void aWarmedRunAgainstAColdOneIsRefusedNamingTheWarmUpUnlessAllowed() throws Exception {
        Side warm = side(
                "baseline", Summaries.run(8, 5000, 2, 0).prediction(PREDICTION).build());
        Side cold = side("candidate", Summaries.run(8, 600, 9, 0).build());
        CompareInputException e =
                assertThrows(CompareInputException.class, () -> RunComparison.of(warm, cold, NoiseBand.DEFAULT, false));
        assertTrue(
                e.getMessage().contains("warm-up a baseline (warm JVM) vs none (--baseline 0: cold JVM)"),
                e.getMessage());
        RunComparison c = RunComparison.of(warm, cold, NoiseBand.DEFAULT, true);
        assertEquals(List.of("warm-up a baseline (warm JVM) vs none (--baseline 0: cold JVM)"), c.planDifferences());
    }

    @Test
    void oneRunPerSideSaysNoNoiseBandCanBeMeasuredBesideTheRegression() throws Exception {
        RunComparison one = RunComparison.of(
                side("baseline", Summaries.run(8, 5000, 2, 0).build()),
                side("candidate", Summaries.run(8, 3000, 2, 0).build()),
                NoiseBand.DEFAULT,
                false);
        assertEquals(RunComparison.REGRESSION_EXIT_CODE, one.exitCode());
        String line = one.verdictLine();
        assertTrue(line.startsWith("REGRESSION: throughput -40.0%"), line);
        assertTrue(line.contains("CAUTION: one run on each side: no noise band can be measured"), line);
        assertTrue(line.contains("run each side 5 times"), line);

        RunSummary a = Summaries.run(8, 5000, 2, 0).build();
        RunSummary b = Summaries.run(8, 5050, 2, 0).build();
        RunComparison three =
                RunComparison.of(side("baseline", a, b, a), side("candidate", b, a, b), NoiseBand.DEFAULT, false);
        assertEquals(List.of(), three.caveats());
        assertEquals("no regression past the band", three.verdictLine());
    }

    @Test
    void aRunOfAFewTenthsOfASecondIsTooShortToCompare() throws Exception {
        RunSummary shortRun = Summaries.run(8, 5000, 2, 0).wallSeconds(0.14).build();
        RunSummary longRun = Summaries.run(8, 5000, 2, 0).build();
        RunComparison c = RunComparison.of(
                side("baseline", shortRun, shortRun, shortRun),
                side("candidate", longRun, longRun, longRun),
                NoiseBand.DEFAULT,
                false);
        assertEquals(3, c.caveats().size(), c.caveats().toString());
        assertTrue(
                c.caveats().get(0).matches("the baseline run .* lasted 0\\.14 s: too short to compare .*"),
                c.caveats().get(0));
        assertTrue(c.verdictLine().contains("lasted 0.14 s: too short to compare"), c.verdictLine());
    }
}
