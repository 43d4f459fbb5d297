package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.upic.liftride.client.LocalServer;
import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.report.SummaryJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * client-part2 against a server that answers every POST 503 for ever and whose last {@code /statistics} carries
 * escape sequences (the JDK's HttpServer on 127.0.0.1): {@code --max-duration} ends the run in time with every
 * output written, and no file shows the server's escape sequences raw.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileServerOutputsIT {

    private static final String ESCAPES = "\\u001b[2J\\u001b[1A\\u0007";
    /** What a terminal acts on: C0 controls but line feed and tab, DEL, C1. */
    private static final String RAW_CONTROL = "(?s).*[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f].*";

    @TempDir
    Path work;

    private HttpServer server;
    private final AtomicInteger statistics = new AtomicInteger();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/liftride/", exchange -> {
            try (exchange) {
                if (exchange.getRequestMethod().equals("GET")
                        && exchange.getRequestURI().getPath().endsWith("/statistics")) {
                    // the pre-flight and the reading before the run are fine, the one after is not a number
                    String body = statistics.incrementAndGet() < 3
                            ? "{\"endpointStats\":[],\"ridesStored\":0}"
                            : "{\"endpointStats\":[],\"ridesStored\":\"" + ESCAPES + "\"}";
                    byte[] b = body.getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, b.length);
                    try (OutputStream o = exchange.getResponseBody()) {
                        o.write(b);
                    }
                    return;
                }
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(503, -1);
            }
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void aServerAnswering503ForEverIsLeftAtTheMaxDurationWithEveryOutputWrittenAndNoRawEscapes() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        LocalServer.Starter noEmbedded = () -> {
            throw new AssertionError("the test passes -i");
        };
        Main main = new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                noEmbedded,
                false,
                work);
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/liftride";
        long start = System.nanoTime();
        // 9,000 requests of 6 attempts each with 155..310 ms of backoff: minutes without the limit
        int exit = main.run(new String[] {
            "-t", "8", "-s", "2000", "-m", "5", "--baseline", "0", "-i", url, "--max-duration", "10s", "--out", "out"
        });
        long millis = (System.nanoTime() - start) / 1_000_000;
        String printed =
                out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);

        assertEquals(ExitCodes.DEADLINE, exit, printed);
        // bound: the 10 s (ample for the start on a busy machine: the limit counts from the command's start), the
        // attempts in flight and the reading after on loopback, then the charts and reports
        assertTrue(millis >= 10_000 && millis < 60_000, millis + " ms\n" + printed);
        assertTrue(printed.contains("--max-duration 10.0s passed"), printed);
        assertFalse(printed.matches(RAW_CONTROL), "a raw control character\n" + printed);
        Path dir = work.resolve("out");
        for (String file : List.of(
                CsvRows.FILE,
                HdrLog.FILE,
                SummaryJson.FILE,
                RunCharts.LATENCY_OVER_TIME,
                RunCharts.THROUGHPUT_OVER_TIME,
                RunCharts.LATENCY_PERCENTILES)) {
            Path f = dir.resolve("t8").resolve(file);
            assertTrue(Files.exists(f) && Files.size(f) > 0, "t8/" + file + "\n" + printed);
        }
        for (Path file : List.of(
                dir.resolve(MarkdownReport.FILE),
                dir.resolve(HtmlReport.FILE),
                dir.resolve("t8").resolve(SummaryJson.FILE))) {
            String text = Files.readString(file);
            assertTrue(text.contains("--max-duration 10.0s passed"), file + " says why");
            assertFalse(text.matches(RAW_CONTROL), file + " shows a raw control character");
        }
        String markdown = Files.readString(dir.resolve(MarkdownReport.FILE));
        assertTrue(markdown.contains("\\x1b[2J\\x1b[1A\\x07"), "the server's text, escaped\n" + markdown);
    }
}
