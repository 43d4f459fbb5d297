package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.Poll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real run against the embedded server with {@code --metrics-port 127.0.0.1:0}, scraped all along: the scrapes
 * show the run going, and the last one (the client waits for a scrape after its run) equals the run's own final
 * counts in summary.json exactly, per phase.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LiveMetricsIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern URL = Pattern.compile("Live metrics: (http://127\\.0\\.0\\.1:\\d+/metrics)");

    @TempDir
    Path work;

    @Test
    void theLastScrapeOfARunEqualsItsSummaryPerPhase() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path summary = work.resolve("summary.json");
        Main main = new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                EmbeddedTarget::start,
                false);
        String[] args = {
            "-t",
            "16",
            "-s",
            "4000",
            "-m",
            "5",
            "--baseline",
            "0",
            "--metrics-port",
            "127.0.0.1:0",
            "--summary-json",
            summary.toString()
        };
        FutureTask<Integer> run = new FutureTask<>(() -> main.run(args));
        new Thread(run, "live-metrics-it-client").start();

        Poll.until(
                "the metrics URL printed",
                Duration.ofSeconds(60),
                () -> URL.matcher(out.toString(StandardCharsets.UTF_8)).find());
        Matcher m = URL.matcher(out.toString(StandardCharsets.UTF_8));
        assertTrue(m.find());
        URI metrics = URI.create(m.group(1));
        List<String> scrapes = new ArrayList<>();
        while (!run.isDone()) { // until the endpoint is gone with the client's return
            try {
                scrapes.add(HTTP.send(
                                HttpRequest.newBuilder(metrics)
                                        .timeout(Duration.ofSeconds(5))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
            } catch (IOException e) {
                // closed: the client is returning
            }
        }
        String output =
                out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, run.get(), output);

        JsonObject account = JsonParser.parseString(Files.readString(summary)).getAsJsonObject();
        String last = scrapes.get(scrapes.size() - 1);
        long total = account.get("successful").getAsLong();
        for (JsonElement p : account.getAsJsonArray("phases")) {
            JsonObject phase = p.getAsJsonObject();
            String name = phase.get("name").getAsString();
            assertEquals(phase.get("successful").getAsLong(), sum(last, "liftride_client_requests_successful", name));
            assertEquals(phase.get("failed").getAsLong(), sum(last, "liftride_client_requests_failed", name));
            assertEquals(phase.get("requests").getAsLong(), sum(last, "liftride_client_requests_sent", name));
        }
        assertEquals(total, sum(last, "liftride_client_requests_successful", null));
        assertEquals(account.get("failed").getAsLong(), sum(last, "liftride_client_requests_failed", null));
        assertEquals(account.get("retries").getAsLong(), sum(last, "liftride_client_retries", null));
        assertEquals(0, sum(last, "liftride_client_requests_in_flight", null));
        assertEquals(total, sum(last, "liftride_client_request_latency_seconds_count", null));
        long midRun = scrapes.stream()
                .mapToLong(s -> sum(s, "liftride_client_requests_successful", null))
                .filter(n -> n > 0 && n < total)
                .count();
        assertTrue(midRun > 0, "a scrape during the run saw part of it; " + scrapes.size() + " scrapes\n" + output);
    }

    /** The sum of metric {@code name}'s samples (a counter's {@code _total}) of {@code phase}, or of all if null. */
    private static long sum(String scrape, String name, String phase) {
        return Math.round(scrape.lines()
                .filter(l -> l.startsWith(name + "_total{") || l.startsWith(name + "{"))
                .filter(l -> phase == null || l.contains("phase=\"" + phase + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum());
    }
}
