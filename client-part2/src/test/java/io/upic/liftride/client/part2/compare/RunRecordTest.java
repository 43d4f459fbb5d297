package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.threshold.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecordTest {

    @TempDir
    Path dir;

    @Test
    void aPercentileAboveTheMaxInAnOlderSummaryReadsAsTheMax() throws Exception {
        RunSummary.Latency old = new RunSummary.Latency(2.0, 1.8, 3.0, 4.0, 8.623, 8.616);
        Path run = Summaries.write(
                dir.resolve("old"), Summaries.run(8, 5000, 2, 0).latencyMs(old).build());
        RunSummary s = RunRecord.read(run).get(0).summary();
        assertEquals(8.616, value(s, Metric.percentile(99.9)));
        assertEquals(8.616, value(s, Metric.MAX));
        assertEquals(4.0, value(s, Metric.percentile(99)));
    }

    @Test
    void aRunFolderASummaryFileAndAnOutputFolderAllGiveTheRun() throws Exception {
        Path run = Summaries.write(
                dir.resolve("out/t8"), Summaries.run(8, 5000, 2, 0).build());
        for (Path input : List.of(run, run.resolve(SummaryJson.FILE), dir.resolve("out"))) {
            List<RunRecord> runs = RunRecord.read(input);
            assertEquals(1, runs.size(), input.toString());
            RunRecord r = runs.get(0);
            assertEquals(run.resolve(SummaryJson.FILE), r.source());
            assertEquals(
                    "-t 8 -s 2000 -l 40 -m 10 --plan fall2021 --transport sdk (closed model) --baseline 0",
                    RunComparison.describe(r.summary()));
            assertEquals(5000, value(r.summary(), Metric.THROUGHPUT));
            assertEquals(4.0, value(r.summary(), Metric.percentile(99)));
            assertEquals(6.0, value(r.summary(), Metric.percentile(99.9)));
            assertEquals(
                    List.of("startup", "peak"),
                    r.summary().phases().stream().map(RunSummary.Phase::name).toList());
            RunSummary.Phase startup = r.summary().phases().get(0);
            assertEquals(
                    2.0,
                    MetricRow.value(
                            Metric.percentile(99),
                            startup.throughput(),
                            startup.failed(),
                            startup.latencyMs(),
                            startup.latencyFromIntendedMs()));
            assertNull(value(r.summary(), Metric.percentile(99).fromIntended()), "closed model");
        }
    }

    @Test
    void aSweepDocumentGivesEveryRun() throws Exception {
        Path file = dir.resolve("all.json");
        SummaryJson.write(
                file,
                List.of(
                        Summaries.run(4, 1, 1, 0).build(),
                        Summaries.run(8, 2, 1, 0).build()));
        assertEquals(
                List.of(4, 8),
                RunRecord.read(file).stream().map(r -> r.summary().threads()).toList());
    }

    @Test
    void client1sSummaryHasNoPercentilesAndReadsAsNotMeasured() throws Exception {
        RunSummary s = Summaries.run(8, 5000, 2, 0)
                .client("client-part1")
                .latencyMs(new RunSummary.Latency(2.0, null, null, null, null, null))
                .build();
        RunSummary r = RunRecord.read(Summaries.write(dir, s)).get(0).summary();
        assertEquals(2.0, value(r, Metric.MEAN));
        assertNull(value(r, Metric.percentile(99)));
    }

    @Test
    void aMissingPathIsNamed() {
        CompareInputException e = assertThrows(CompareInputException.class, () -> RunRecord.read(dir.resolve("nope")));
        assertEquals("no such file or folder: " + dir.resolve("nope"), e.getMessage());
    }

    @Test
    void aFolderWithoutSummaryIsRefused() throws Exception {
        Files.createDirectories(dir.resolve("empty/sub"));
        CompareInputException e = assertThrows(CompareInputException.class, () -> RunRecord.read(dir.resolve("empty")));
        assertTrue(e.getMessage().contains("holds no summary.json"), e.getMessage());
    }

    @Test
    void unreadableJsonAndJsonThatIsNoSummaryAreRefusedInOneLine() throws Exception {
        Files.writeString(dir.resolve("bad.json"), "{\"schemaVersion\": 1, \"threads\": ");
        Files.writeString(dir.resolve("other.json"), "{\"hello\": \"world\"}");
        Files.writeString(dir.resolve("array.json"), "[1, 2]");
        Files.writeString(dir.resolve("part.json"), "{\"schemaVersion\": 1, \"plan\": \"fall2021\"}");
        Files.writeString(dir.resolve("newer.json"), "{\"schemaVersion\": 2}");
        assertRefused("bad.json", "is not a run summary (unreadable JSON: ");
        assertRefused("other.json", "is not a run summary (no schemaVersion)");
        assertRefused("array.json", "is not a run summary (unreadable JSON: ");
        assertRefused("part.json", "is not a run summary (no threads)");
        assertRefused("newer.json", "has schemaVersion 2; this compare reads 1");
    }

    @Test
    void aFileLargerThanAnySummaryIsRefusedUnread() throws Exception {
        Path big = dir.resolve("big.json");
        try (var ch = java.nio.channels.FileChannel.open(
                big, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {'{'}), RunRecord.MAX_BYTES); // sparse
        }
        assertRefused("big.json", "is " + (RunRecord.MAX_BYTES + 1) + " bytes, more than a summary's");
    }

    /** The whole run's value of {@code m} as compare reads it. */
    private static Double value(RunSummary s, Metric m) {
        return MetricRow.value(m, s.throughput(), s.failed(), s.latencyMs(), s.latencyFromIntendedMs());
    }

    private void assertRefused(String file, String why) {
        CompareInputException e = assertThrows(CompareInputException.class, () -> RunRecord.read(dir.resolve(file)));
        assertTrue(e.getMessage().startsWith(dir.resolve(file) + " " + why), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
    }
}
