package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.report.SummarySchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * client-part2 with --mix against the embedded server: summary.json has each operation's histogram percentiles,
 * latency.hlog each operation's histogram, report.md and report.html a row per operation, requests.csv each
 * attempt's operation, and a percentile threshold on one operation is judged on its requests alone.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixPart2IT {

    @TempDir
    Path work;

    @Test
    void eachOperationGetsItsPercentilesItsReportRowsAndItsThresholds() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        EmbeddedTarget::start,
                        false,
                        work)
                .run(new String[] {
                    "-t",
                    "4",
                    "-s",
                    "200",
                    "-m",
                    "2",
                    "--baseline",
                    "0",
                    "--quiet",
                    "--out",
                    "out",
                    "--mix",
                    "writeNewLiftRide=70,getSkierDayVertical=20,getResortSkiersDay=10",
                    "--threshold",
                    "p99{op=getSkierDayVertical}<10s",
                    "--threshold",
                    "p50{op=getResortSkiersDay}<1ns"
                });
        String printed =
                out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
        assertEquals(3, exit, printed); // the 1 ns median fails on purpose
        Path run = work.resolve("out").resolve("t4");
        String json = Files.readString(run.resolve("summary.json"), StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        JsonNode ops = t.get("operations");
        assertEquals(3, ops.size(), json);
        long successful = 0;
        for (JsonNode op : ops) {
            JsonNode l = op.get("latencyMs");
            assertTrue(
                    l.get("p50").asDouble() > 0
                            && l.get("p99").asDouble() >= l.get("p50").asDouble(),
                    json);
            assertTrue(l.get("max").asDouble() >= l.get("p99").asDouble(), json);
            assertEquals(op.get("requests").asLong(), op.get("successful").asLong(), json);
            successful += op.get("successful").asLong();
        }
        assertEquals(t.get("successful").asLong(), successful, json);
        assertEquals(
                ops.get(0).get("successful").asLong(),
                t.get("server").get("delta").asLong(),
                json);
        Map<String, Long> rowsByOperation;
        try (Stream<String> lines = Files.lines(run.resolve(CsvRows.FILE))) {
            rowsByOperation = lines.skip(1)
                    .collect(Collectors.groupingBy(l -> l.substring(l.lastIndexOf(',') + 1), Collectors.counting()));
        }
        for (JsonNode op : ops) {
            String id = op.get("operation").asString();
            assertEquals(op.get("attempts").asLong(), rowsByOperation.get(id), "CSV rows of " + id);
        }
        assertEquals(ops.size(), rowsByOperation.size(), rowsByOperation.toString());
        var logged = HdrLog.readByTag(run.resolve(HdrLog.FILE));
        for (JsonNode op : ops) { // a merge of shards adds these up
            var h = logged.get(HdrLog.OPERATION_PREFIX + op.get("operation").asString());
            assertEquals(op.get("attempts").asLong(), h.getTotalCount(), "logged per operation: " + op);
        }
        assertTrue(printed.contains("  PASS  p99{op=getSkierDayVertical}<10s  (measured "), printed);
        assertTrue(printed.contains("  FAIL  p50{op=getResortSkiersDay}<1ns  (measured "), printed);

        String md = Files.readString(run.getParent().resolve("report.md"), StandardCharsets.UTF_8);
        assertTrue(md.contains("### t4: Operations (--mix)"), md);
        for (JsonNode op : ops) {
            assertTrue(
                    md.contains("| " + op.get("operation").asString() + " | "
                            + op.get("weight").asInt() + " | "),
                    md);
        }
        String html = Files.readString(run.getParent().resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("Operations (--mix)"), "report.html has the operations table");
        assertTrue(html.contains("getResortSkiersDay"), "report.html names each operation");
    }
}
