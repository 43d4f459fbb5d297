package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.part2.chart.ChartStyle;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.chart.SweepCharts;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.RunOutput;
import io.upic.liftride.client.report.TheoryTable;
import io.upic.liftride.cluster.Poll;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** client-part2's command against the real servlets on embedded Tomcat, files checked on disk. */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientPart2IT {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Main main() {
        return new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                EmbeddedTarget::start,
                false,
                work);
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSmallRunWritesAllRowsValidChartsAHistogramLogAndAReportWhoseLinksResolve() throws Exception {
        Main main = main();
        int exit = main.run(new String[] {"-t", "8", "-s", "200", "-m", "2", "--baseline", "50", "--out", "out"});
        assertEquals(0, exit, output());
        Path dir = work.resolve("out");
        List<RunOutput> runs = main.instrumentation().outputs();
        assertEquals(1, runs.size());
        RunOutput run = runs.get(0);
        long attempts = run.attempts();
        assertTrue(attempts >= run.report().result().requests().planned() && attempts > 0);

        Path csv = dir.resolve("t8").resolve("requests.csv");
        List<String> lines = Files.readAllLines(csv, StandardCharsets.US_ASCII);
        assertEquals(CsvRows.HEADER, lines.get(0));
        assertEquals(attempts, lines.size() - 1, "rows == attempts");
        assertTrue(
                lines.get(1).matches("\\d{13},POST,\\d+\\.\\d{3},201,(startup|peak|cooldown),1,\\d+,,writeNewLiftRide"),
                lines.get(1));
        assertTrue(
                output().contains(String.format(
                        java.util.Locale.US, "  files      t8/: requests.csv (%,d rows), latency.hlog", attempts)),
                output());

        for (String png :
                List.of(RunCharts.LATENCY_OVER_TIME, RunCharts.THROUGHPUT_OVER_TIME, RunCharts.LATENCY_PERCENTILES)) {
            assertValidPng(dir.resolve("t8").resolve(png));
        }
        assertHistogramLogHolds(dir.resolve("t8").resolve(HdrLog.FILE), attempts);
        Path report = dir.resolve(MarkdownReport.FILE);
        List<String> links = assertLinksResolve(report);
        assertTrue(
                links.containsAll(List.of(
                        "t8/requests.csv",
                        "t8/latency.hlog",
                        "t8/" + RunCharts.LATENCY_OVER_TIME,
                        "t8/" + RunCharts.THROUGHPUT_OVER_TIME,
                        "t8/" + RunCharts.LATENCY_PERCENTILES)),
                links.toString());
        String markdown = Files.readString(report);
        assertFalse(markdown.contains("## Sweep"));
        // Little's law: the same rows, computed once in client-part1, in report.md and (the wall time) on the console
        TheoryTable theory = TheoryTable.of(run.report());
        assertEquals(5, theory.rows().size());
        for (TheoryTable.Row row : theory.rows()) {
            String cells = String.join(" | ", row.measuredText(), row.naiveText(), row.naiveDiff());
            assertTrue(markdown.contains("| " + row.quantity() + " | " + cells + " | "), row + "\n" + markdown);
        }
        TheoryTable.Row wall = theory.rows().get(3);
        assertEquals("whole run wall time", wall.quantity());
        assertTrue(
                output().contains("model " + wall.modelText() + " (" + wall.modelDiff() + "), naive N / W "
                        + wall.naiveText() + " (" + wall.naiveDiff() + ")"),
                output());
    }

    @Test
    void aTinySweepDrawsTheSweepChartsAndOneFolderPerThreadCount() throws Exception {
        Main main = main();
        int exit = main.run(new String[] {"-t", "4,8", "-s", "200", "-m", "2", "--baseline", "50", "--out", "sweep"});
        assertEquals(0, exit, output());
        Path dir = work.resolve("sweep");
        for (String png : List.of(SweepCharts.WALL_TIME, SweepCharts.THROUGHPUT, SweepCharts.LATENCY)) {
            assertValidPng(dir.resolve(png));
        }
        for (String t : List.of("t4", "t8")) {
            assertTrue(Files.isRegularFile(dir.resolve(t).resolve("requests.csv")), t);
            assertValidPng(dir.resolve(t).resolve(RunCharts.LATENCY_PERCENTILES));
        }
        String report = Files.readString(dir.resolve(MarkdownReport.FILE));
        assertTrue(report.contains("## Sweep"));
        assertTrue(report.contains("## Run: 4 threads") && report.contains("## Run: 8 threads"));
        List<String> links = assertLinksResolve(dir.resolve(MarkdownReport.FILE));
        assertTrue(
                links.containsAll(List.of(SweepCharts.WALL_TIME, SweepCharts.THROUGHPUT, SweepCharts.LATENCY)),
                links.toString());
        for (RunOutput o : main.instrumentation().outputs()) {
            assertEquals(o.attempts(), Files.lines(o.csv().file()).count() - 1);
        }
    }

    @Test
    void ctrlCDuringARunStillWritesEveryRowSoFarAndAPartialReport() throws Exception {
        Main main = main();
        Thread interrupter = new Thread(() -> {
            Path csv = work.resolve("stop").resolve("t8").resolve("requests.csv");
            Poll.until(
                    "rows on disk: the run is really sending",
                    Duration.ofSeconds(60),
                    () -> Files.exists(csv) && Files.size(csv) >= 20_000);
            main.onShutdown(); // what the JVM's shutdown hook does on Ctrl-C
        });
        interrupter.setDaemon(true);
        interrupter.start();
        int exit = main.run(new String[] {"-t", "8", "-s", "20000", "-m", "20", "--baseline", "0", "--out", "stop"});
        interrupter.join(10_000);
        assertEquals(1, exit, output());
        RunOutput run = main.instrumentation().outputs().get(0);
        assertTrue(run.report().result().stopped());
        long attempts = run.attempts();
        assertTrue(attempts > 0 && attempts < run.report().result().requests().planned(), "a partial run: " + attempts);
        assertEquals(
                attempts,
                Files.lines(run.csv().file()).count() - 1,
                "every attempt made before the stop is in the CSV");
        assertTrue(run.rowsMatch());
        assertTrue(output().contains("STOPPED"), output());
        assertTrue(Files.readString(work.resolve("stop").resolve(MarkdownReport.FILE))
                .contains("Stopped early"));
        assertValidPng(work.resolve("stop").resolve("t8").resolve(RunCharts.THROUGHPUT_OVER_TIME));
    }

    private static void assertValidPng(Path file) throws Exception {
        assertTrue(Files.isRegularFile(file), file + " exists");
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(bytes.length > 1000, file + " has content");
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, 8), file + " is a PNG");
        BufferedImage image = ImageIO.read(file.toFile());
        assertNotNull(image, file + " decodes");
        assertEquals(ChartStyle.WIDTH, image.getWidth());
        assertEquals(ChartStyle.HEIGHT, image.getHeight());
    }

    private static void assertHistogramLogHolds(Path hlog, long attempts) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        EncodableHistogram first = reader.nextIntervalHistogram();
        assertNotNull(first);
        assertEquals(attempts, ((org.HdrHistogram.Histogram) first).getTotalCount(), "untagged entry: every attempt");
        int entries = 1;
        while (reader.nextIntervalHistogram() != null) {
            entries++;
        }
        assertEquals(8, entries, "run, first attempts, three phases and their first attempts");
    }

    /** Every Markdown link target of {@code report} exists relative to it; returns the targets. */
    private static List<String> assertLinksResolve(Path report) throws Exception {
        Matcher m = Pattern.compile("\\]\\(([^)]+)\\)").matcher(Files.readString(report));
        List<String> links = new ArrayList<>();
        while (m.find()) {
            String target = m.group(1);
            links.add(target);
            assertTrue(Files.exists(report.getParent().resolve(target)), "link " + target + " resolves");
        }
        assertFalse(links.isEmpty());
        try (Stream<Path> pngs = Files.walk(report.getParent())) {
            for (Path p : pngs.filter(p -> p.toString().endsWith(".png")).toList()) {
                String rel = report.getParent().relativize(p).toString().replace('\\', '/');
                assertTrue(links.contains(rel), "every PNG is linked: " + rel);
            }
        }
        return links;
    }
}
