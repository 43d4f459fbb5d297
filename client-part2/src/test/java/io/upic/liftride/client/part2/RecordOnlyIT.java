package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.LocalServer;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.report.SummaryJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's record is its {@code summary.json} and its histogram logs: two shards run against one embedded server,
 * and with every other file of their folders deleted, {@code merge} and {@code compare} answer exactly as they do
 * from the full folders; a merge whose server count disagrees with the shards' writes exits 1.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecordOnlyIT {

    private static final int THREADS = 8, SKIERS = 400, RUNS = 2;

    @TempDir
    static Path work;

    /** The two shards' full folders under full/, and their records alone under record/. */
    @BeforeAll
    static void runTwoShards() throws Exception {
        try (LocalServer server = EmbeddedTarget.start()) {
            for (String shard : List.of("1/2", "2/2")) {
                Result run = main(
                        "-t",
                        "" + THREADS,
                        "-s",
                        "" + SKIERS,
                        "-m",
                        "" + RUNS,
                        "--baseline",
                        "0",
                        "--transport",
                        "raw",
                        "-i",
                        server.baseUrl(),
                        "--shard",
                        shard,
                        "--out",
                        "full/shard" + shard.charAt(0));
                assertEquals(0, run.exit(), run.printed());
            }
        }
        copy(work.resolve("full"), work.resolve("record"));
        assertEquals(
                List.of(
                        "shard1/t8/latency-per-second.hlog",
                        "shard1/t8/latency.hlog",
                        "shard1/t8/summary.json",
                        "shard2/t8/latency-per-second.hlog",
                        "shard2/t8/latency.hlog",
                        "shard2/t8/summary.json"),
                stripToRecord(work.resolve("record")));
    }

    @Test
    void mergeAndCompareGiveTheSameAnswersFromSummaryAndHistogramLogsAlone() throws Exception {
        Result fullMerge = main("merge", "full/shard1", "full/shard2", "--out", "merged-full");
        Result recordMerge = main("merge", "record/shard1", "record/shard2", "--out", "merged-record");
        assertEquals(0, fullMerge.exit(), fullMerge.printed());
        assertEquals(0, recordMerge.exit(), recordMerge.printed());
        assertEquals(
                withoutPaths(fullMerge.printed(), "full", "merged-full"),
                withoutPaths(recordMerge.printed(), "record", "merged-record"));
        JsonObject full = mergedSummary("merged-full");
        JsonObject record = mergedSummary("merged-record");
        long plan = PhasePlan.fall2021().forRun(THREADS, SKIERS, RUNS).totalRequests();
        assertEquals(plan, full.get("planned").getAsLong());
        assertEquals(plan, full.get("successful").getAsLong());
        assertEquals(full, record, "the merged summary.json, but for where each shard was read from");
        assertTrue(record.getAsJsonObject("server").get("reconciled").getAsBoolean(), record.toString());

        List<String> compare = List.of("--allow-different-plans", "--max-regression", "5%", "--markdown");
        Result fullCompare = main(args("compare", "full/shard1/t8", "full/shard2/t8", compare, "full.md"));
        Result recordCompare = main(args("compare", "record/shard1/t8", "record/shard2/t8", compare, "record.md"));
        assertTrue(fullCompare.exit() == 0 || fullCompare.exit() == 3, fullCompare.printed());
        assertEquals(fullCompare.exit(), recordCompare.exit(), recordCompare.printed());
        assertTrue(fullCompare.printed().contains("p99 (ms)"), fullCompare.printed());
        assertEquals(
                withoutPaths(fullCompare.printed(), "full", "full.md"),
                withoutPaths(recordCompare.printed(), "record", "record.md"));
        assertEquals(
                withoutPaths(Files.readString(work.resolve("full.md")), "full", "full.md"),
                withoutPaths(Files.readString(work.resolve("record.md")), "record", "record.md"));
    }

    @Test
    void aMergeWhoseServerCountDisagreesWithTheShardsWritesExitsOneNamingBoth() throws Exception {
        copy(work.resolve("record"), work.resolve("outside"));
        Path summary = work.resolve("outside/shard2/t8").resolve(SummaryJson.FILE);
        JsonObject s = JsonParser.parseString(Files.readString(summary)).getAsJsonObject();
        JsonObject serverCount = s.getAsJsonObject("server");
        long after = serverCount.get("ridesStoredAfter").getAsLong();
        serverCount.addProperty("ridesStoredAfter", after + 5); // an outside writer stored five rides meanwhile
        Files.writeString(summary, s.toString());

        Result clean = main("merge", "record/shard1", "record/shard2", "--out", "merged-clean");
        assertEquals(0, clean.exit(), clean.printed());
        assertFalse(clean.printed().contains("MISMATCH"), clean.printed());
        Result m = main("merge", "outside/shard1", "outside/shard2", "--out", "merged-outside");
        System.out.println(m.printed()); // what a user sees, in the test's report
        assertEquals(1, m.exit(), m.printed());
        JsonObject merged = mergedSummary("merged-outside");
        long delta = merged.getAsJsonObject("server").get("delta").getAsLong();
        assertEquals(merged.get("successful").getAsLong() + 5, delta);
        assertFalse(merged.getAsJsonObject("server").get("reconciled").getAsBoolean());
        assertFalse(merged.get("ok").getAsBoolean());
        assertTrue(
                m.printed().contains(String.format(java.util.Locale.US, "server stored %,d rides", delta))
                        && m.printed()
                                .contains(String.format(
                                        java.util.Locale.US,
                                        "%,d successful writes: MISMATCH",
                                        merged.get("successful").getAsLong())),
                m.printed());
    }

    private record Result(int exit, String printed) {}

    private static Result main(String... args) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(printed, true, StandardCharsets.UTF_8);
        int exit = new Main(ps, ps, EmbeddedTarget::start, false, work).run(args);
        return new Result(exit, printed.toString(StandardCharsets.UTF_8));
    }

    private static String[] args(String command, String a, String b, List<String> flags, String markdown) {
        List<String> all = new ArrayList<>(List.of(command, a, b));
        all.addAll(flags);
        all.add(markdown);
        return all.toArray(String[]::new);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    /** Deletes every file under {@code dir} but summary.json and the histogram logs; the files kept, sorted. */
    private static List<String> stripToRecord(Path dir) throws IOException {
        List<String> kept = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.equals(SummaryJson.FILE) || name.endsWith(".hlog")) {
                    kept.add(dir.relativize(f).toString().replace('\\', '/'));
                } else {
                    Files.delete(f);
                }
            }
        }
        return kept;
    }

    /** The merged t8 summary without each shard's folder path (where it was read from). */
    private static JsonObject mergedSummary(String out) throws IOException {
        JsonObject s = JsonParser.parseString(Files.readString(work.resolve(out).resolve("t8/summary.json")))
                .getAsJsonObject();
        JsonArray shards = s.getAsJsonArray("shards");
        for (JsonElement part : shards) {
            part.getAsJsonObject().remove("dir");
        }
        return s;
    }

    /** {@code text} with the work folder and the two names that differ between the runs replaced. */
    private static String withoutPaths(String text, String inputs, String output) {
        return text.replace(work.toString(), "WORK").replace(output, "OUT").replace("/" + inputs + "/", "/IN/");
    }
}
