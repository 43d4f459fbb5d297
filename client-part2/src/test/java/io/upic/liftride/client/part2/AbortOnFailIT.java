package io.upic.liftride.client.part2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.upic.liftride.client.LocalServer;
import io.upic.liftride.client.part2.chart.RunCharts;
import io.upic.liftride.client.part2.csv.CsvRows;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.HtmlReport;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.report.SummarySchema;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code --abort-on-fail} against a server slowed on purpose mid-run (the JDK's HttpServer on 127.0.0.1, storing
 * every ride it answers): after {@link #FAST_POSTS} rides every POST takes {@link #SLOW_MILLIS} ms, so {@code
 * p99<1500ms} soon can no longer hold. The run stops within seconds of the breach with every output written, the
 * reason in summary.json, exit 3 and an exact reconciliation. The bound is five times the slowest fast answer seen
 * on this machine at a load average of 38 (290 ms), so that only the slowdown breaks it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AbortOnFailIT {

    /** Fast POSTs before the slowdown: into the peak phase of -t 16 -s 250 -m 5 (250 + 750 + 126 rides). */
    private static final long FAST_POSTS = 400;

    private static final long SLOW_MILLIS = 2_000;
    private static final long PLANNED = 1_126;
    /**
     * Bound on breach to the last request sent: p99 of 1,126 attempts lets 11 slow ones past, and the 16 threads'
     * first slow attempts end 2 s after the breach.
     */
    private static final long STOP_WITHIN_MILLIS = 5_000;

    @TempDir
    Path work;

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicLong posts = new AtomicLong();
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong breachNanos = new AtomicLong();
    private final AtomicLong lastPostNanos = new AtomicLong();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        handlers = Executors.newFixedThreadPool(64);
        server.setExecutor(handlers);
        server.createContext("/liftride/", exchange -> {
            try (exchange) {
                if (exchange.getRequestMethod().equals("GET")) {
                    answer(exchange, 200, "{\"endpointStats\":[],\"ridesStored\":" + stored.get() + "}");
                    return;
                }
                exchange.getRequestBody().readAllBytes();
                long now = System.nanoTime();
                lastPostNanos.accumulateAndGet(now, Math::max);
                if (posts.incrementAndGet() > FAST_POSTS) {
                    breachNanos.compareAndSet(0, now);
                    Thread.sleep(SLOW_MILLIS); // the slowdown is the scenario
                }
                stored.incrementAndGet();
                exchange.sendResponseHeaders(201, -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, b.length);
        try (OutputStream o = exchange.getResponseBody()) {
            o.write(b);
        }
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void aServerSlowedMidRunIsLeftWithinSecondsOfTheBreachWithEveryOutputAndAnExactReconciliation() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LocalServer.Starter noEmbedded = () -> {
            throw new AssertionError("the test passes -i");
        };
        Main main = new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                noEmbedded,
                false,
                work);
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/liftride";
        int exit = main.run(new String[] {
            "-t",
            "16",
            "-s",
            "250",
            "-m",
            "5",
            "--baseline",
            "0",
            "-i",
            url,
            "--out",
            "out",
            "--threshold",
            "p99<1500ms",
            "--threshold",
            "failed==0",
            "--abort-on-fail",
            "--abort-delay",
            "500ms"
        });
        long returnedNanos = System.nanoTime();
        String printed = out.toString(StandardCharsets.UTF_8);

        assertEquals(ThresholdCheck.EXIT_CODE, exit, printed);
        assertTrue(breachNanos.get() != 0, "the server never slowed down\n" + printed);
        long stopMillis = (lastPostNanos.get() - breachNanos.get()) / 1_000_000;
        System.out.printf(
                Locale.US,
                "abort: breach to the last request sent %d ms, to the command's return %d ms (load average %.2f)%n",
                stopMillis,
                (returnedNanos - breachNanos.get()) / 1_000_000,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        assertTrue(stopMillis < STOP_WITHIN_MILLIS, stopMillis + " ms from the breach\n" + printed);
        assertTrue(
                printed.contains("Stopped by --abort-on-fail") && printed.contains("p99<1500ms can no longer hold"),
                printed);

        Path dir = work.resolve("out");
        for (String file : List.of(
                CsvRows.FILE,
                HdrLog.FILE,
                HdrLog.PER_BUCKET_FILE,
                SummaryJson.FILE,
                RunCharts.LATENCY_OVER_TIME,
                RunCharts.THROUGHPUT_OVER_TIME,
                RunCharts.LATENCY_PERCENTILES)) {
            Path f = dir.resolve("t16").resolve(file);
            assertTrue(Files.exists(f) && Files.size(f) > 0, "t16/" + file + "\n" + printed);
        }
        for (Path page : List.of(dir.resolve(MarkdownReport.FILE), dir.resolve(HtmlReport.FILE))) {
            assertTrue(Files.readString(page).contains("Stopped by --abort-on-fail"), page + " says why");
        }
        assertTrue(main.instrumentation().ok(), "CSV rows and histograms match the attempts: " + printed);

        String summary = Files.readString(dir.resolve("t16").resolve(SummaryJson.FILE));
        assertEquals(List.of(), SummarySchema.errors(summary), summary);
        JsonNode s = SummarySchema.tree(summary);
        JsonNode abort = s.get("abort");
        assertEquals("p99<1500ms", abort.get("threshold").asString(), summary);
        assertTrue(abort.get("reason").asString().contains("attempts took at least 1,500.000 ms"), summary);
        assertTrue(abort.get("afterSeconds").asDouble() >= 0.5, "not before --abort-delay: " + summary);
        assertTrue(s.get("stopped").asBoolean(), summary);
        long successful = s.get("successful").asLong();
        assertEquals(PLANNED, s.get("planned").asLong(), summary);
        assertEquals(0, s.get("failed").asLong(), "every attempt in flight ended with its 201: " + summary);
        assertEquals(PLANNED - successful, s.get("notSent").asLong(), summary);
        assertTrue(successful > FAST_POSTS && successful < PLANNED / 2, "stopped early: " + summary);
        JsonNode reconciled = s.get("server");
        assertTrue(reconciled.get("reconciled").asBoolean(), summary);
        assertEquals(successful, reconciled.get("delta").asLong(), summary);
        assertEquals(stored.get(), successful, "the server stored exactly the successful rides");
        assertEquals(posts.get(), s.get("attempts").asLong(), "every attempt reached the server, none hidden");
    }
}
