package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.threshold.Metric;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunComparisonTest {

    private static int n;

    private static ComparedRun run(RunSummary s) throws Exception {
        // the reader's own mapping, from the real writer's JSON
        Path dir = java.nio.file.Files.createTempDirectory("compare-test-" + n++);
        return SummaryReader.read(Summaries.write(dir, s)).get(0);
    }

    private static Side side(String name, RunSummary... summaries) throws Exception {
        List<ComparedRun> runs = new ArrayList<>();
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
        assertEquals("no regression past the band", c.verdictLine());
        assertEquals(
                List.of("run", "startup", "peak"),
                c.scopes().stream().map(RunComparison.Scope::name).toList());
        assertEquals(8, c.scopes().get(0).rows().size(), "closed model: no intended rows");
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
        assertEquals("REGRESSION: p99 +50.0% (4.000 -> 6.000 ms, band 10%)", c.verdictLine());
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
        assertEquals("REGRESSION: throughput -55.0% (5,000.0 -> 2,250.0 req/s, band 10%)", c.verdictLine());
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
}
