package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.report.ConsoleReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.report.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command end to end on summaries written by the real writer: its output, its files and exit codes. */
class CompareCommandTest {

    @TempDir
    Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void runs() throws Exception {
        Summaries.write(work.resolve("base1"), Summaries.run(8, 5000, 2.0, 0).build());
        Summaries.write(work.resolve("base2"), Summaries.run(8, 5100, 2.1, 0).build());
        Summaries.write(work.resolve("same"), Summaries.run(8, 4950, 2.05, 0).build());
        Summaries.write(work.resolve("slow"), Summaries.run(8, 3000, 3.0, 0).build());
        Summaries.write(work.resolve("t16"), Summaries.run(16, 5000, 2.0, 0).build());
        Summaries.write(
                work.resolve("raw"),
                Summaries.run(8, 5000, 2.0, 0).transport("raw").build());
        Summaries.write(
                work.resolve("rate"),
                Summaries.run(8, 5000, 2.0, 0).offeredRate(500.0).build());
        Summaries.write(
                work.resolve("warm"),
                Summaries.run(8, 5000, 2.0, 0)
                        .prediction(
                                new RunSummary.PredictionInputs("MVA closed network", 4, 5000, 1e6, null, null, null))
                        .build());
    }

    private int compare(String... args) {
        return new CompareCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        work)
                .run(args, "client-part2");
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsWithinTheBandExitZeroAndPrintEveryScope() {
        assertEquals(0, compare("base1,base2", "same", "--max-regression", "5%"), stderr());
        String o = stdout();
        assertTrue(o.contains("Baseline:  2 runs ("), o);
        assertTrue(o.contains("Whole run"), o);
        assertTrue(o.contains("Phase startup"), o);
        assertTrue(o.contains("Phase peak"), o);
        assertTrue(
                o.lines()
                        .anyMatch(l ->
                                l.matches("  throughput \\(req/s\\) +5,050\\.0 \\(5,000\\.0–5,100\\.0\\) +4,950\\.0"
                                        + " +-2\\.0% +5% +ok")),
                o);
        assertTrue(o.lines().anyMatch(l -> l.matches("  failed \\(requests\\) +0 +0 +0\\.0% +5% +ok")), o);
        assertTrue(o.contains("Result: no regression past the band; CAUTION: one run on the candidate side"), o);
        assertTrue(o.contains("capped at the exact max"), "says where the percentiles come from: " + o);
        assertEquals("", stderr());
    }

    @Test
    void aSlowerCandidateExitsThreeNamingTheMetrics() {
        assertEquals(3, compare("base1", "slow", "--max-regression", "5%,max=off"));
        String o = stdout();
        assertTrue(
                o.contains("Result: REGRESSION: throughput -40.0% (5,000.0 -> 3,000.0 req/s, band 5%), mean +50.0%"),
                o);
        assertFalse(o.contains("max +50.0%"), "max is off: " + o);
    }

    @Test
    void markdownIsAGithubTableWithTheRegressionsMarked() throws Exception {
        assertEquals(3, compare("base1", "slow", "--markdown", "pr/comment.md"));
        String md = Files.readString(work.resolve("pr/comment.md"));
        assertTrue(md.startsWith("### Load test: candidate vs baseline\n\n**REGRESSION: throughput -40.0%"), md);
        assertTrue(
                md.contains(
                        "| Whole run | baseline | candidate | change | band | verdict |\n|---|---:|---:|---:|---:|---|\n"),
                md);
        assertTrue(md.contains("| p99 (ms) | 4.000 | 6.000 | **+50.0%** | 10% | **REGRESSION** |"), md);
        assertTrue(md.contains("<details><summary>Per phase (not gated)</summary>"), md);
        assertTrue(stdout().contains("Markdown: " + work.resolve("pr/comment.md")), stdout());
    }

    @Test
    void htmlIsAcceptedAndWritesNoPage() {
        assertEquals(3, compare("base1", "slow", "--html", "cmp.html"));
        assertFalse(Files.exists(work.resolve("cmp.html")), "no page written");
        assertTrue(stderr().contains("--html ignored"), stderr());
    }

    @Test
    void everyOutputIsTheReportModelAsTheReportsRenderersWriteIt() throws Exception {
        assertEquals(3, compare("base1", "slow", "--markdown", "c.md"));
        ReportModel.Comparison model = RunComparison.of(
                        RunComparison.Side.of("baseline", RunRecord.read(work.resolve("base1"))),
                        RunComparison.Side.of("candidate", RunRecord.read(work.resolve("slow"))),
                        NoiseBand.DEFAULT,
                        false)
                .model();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        ConsoleReport.print(new PrintStream(console, true, StandardCharsets.UTF_8), model);
        assertTrue(stdout().startsWith(console.toString(StandardCharsets.UTF_8)), stdout());
        assertEquals(MarkdownReport.render(model), Files.readString(work.resolve("c.md")));
    }

    @Test
    void unlikePlansExitTwoNamingTheDifferenceUnlessAllowed() {
        assertEquals(2, compare("base1", "t16"));
        assertEquals(
                "compare: refusing to compare unlike plans: -t 8 vs 16 (baseline vs candidate;"
                        + " --allow-different-plans compares them anyway)\n",
                stderr());
        assertEquals(0, compare("base1", "t16", "--allow-different-plans"));
        assertTrue(stdout().contains("UNLIKE PLANS compared (--allow-different-plans): -t 8 vs 16"), stdout());
    }

    @Test
    void runsOfAnotherTransportRateOrWarmUpExitTwoNamingTheDifference() {
        for (String[] c : List.of(
                new String[] {"raw", "--transport sdk vs raw"},
                new String[] {"rate", "--rate none (closed model) vs 500"},
                new String[] {"warm", "warm-up none (--baseline 0: cold JVM) vs a baseline (warm JVM)"})) {
            err.reset();
            assertEquals(2, compare("base1", c[0]), c[0]);
            assertEquals(
                    "compare: refusing to compare unlike plans: " + c[1] + " (baseline vs candidate;"
                            + " --allow-different-plans compares them anyway)\n",
                    stderr());
        }
    }

    @Test
    void badInputExitsTwoWithOneLineFirst() {
        assertBad("compare needs BASELINE and CANDIDATE", "base1");
        assertBad("no such file or folder: " + work.resolve("nope"), "base1", "nope");
        assertBad("BASELINE has an empty entry in its comma-separated list: base1,", "base1,", "same");
        assertBad(
                "--max-regression must be N% (every metric) or METRIC=N% or METRIC=off, comma-separated"
                        + " (unknown metric p99x; ",
                "base1", "same", "--max-regression", "p99x=5%");
        assertBad(
                "--max-regression: the band of p99 is given twice",
                "base1",
                "same",
                "--max-regression",
                "p99=5%",
                "--max-regression",
                "p99=6%");
        assertBad("--markdown needs a value", "base1", "same", "--markdown");
    }

    private void assertBad(String firstLine, String... args) {
        out.reset();
        err.reset();
        assertEquals(2, compare(args), stderr());
        String e = stderr();
        String first = e.substring(0, e.indexOf('\n'));
        assertTrue(first.contains(firstLine), first);
    }

    @Test
    void helpExitsZero() {
        assertEquals(0, compare("--help"));
        assertTrue(stdout().contains("--max-regression"), stdout());
    }
}
