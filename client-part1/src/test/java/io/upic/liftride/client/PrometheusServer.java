package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.cluster.Programs;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Prometheus (Debian's {@code prometheus} package, installed when missing) on a free loopback port, scraping
 * its jobs every second until closed; queried over its HTTP API.
 */
record PrometheusServer(Process process, int port, Path dir) implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A scrape job: its name, metrics path and host:port targets. */
    record Job(String name, String metricsPath, List<String> targets) {}

    /** Starts Prometheus in {@code dir} (its configuration, data and log) scraping {@code jobs}, ready to query. */
    static PrometheusServer start(Path dir, List<Job> jobs) throws Exception {
        String binary = Programs.require("prometheus", "prometheus");
        Files.createDirectories(dir.resolve("data"));
        StringBuilder config = new StringBuilder("""
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                """);
        for (Job job : jobs) {
            config.append("""
                      - job_name: %s
                        metrics_path: %s
                        static_configs:
                          - targets: [%s]
                    """.formatted(
                            job.name(),
                            job.metricsPath(),
                            job.targets().stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "))));
        }
        Path file = dir.resolve("prometheus.yml");
        Files.writeString(file, config);
        int port = FreePorts.next();
        Process process = new ProcessBuilder(
                        binary,
                        "--config.file=" + file,
                        "--storage.tsdb.path=" + dir.resolve("data"),
                        "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile())
                .start();
        PrometheusServer prometheus = new PrometheusServer(process, port, dir);
        GracefulDrainIT.awaitStatus(prometheus.url() + "/-/ready", process, dir.resolve("prometheus.log"));
        return prometheus;
    }

    /** The host:port of a base URL such as {@code http://127.0.0.1:8081/liftride}. */
    static String authority(String url) {
        return URI.create(url).getAuthority();
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Waits (30 s at most) until {@code count} targets of {@code job} report up. */
    void awaitTargetsUp(String job, int count) {
        awaitQuery(count + " targets of " + job + " up", "sum(up{job=\"" + job + "\"})", count);
    }

    /** Waits (30 s at most) until every target of {@code job} was last scraped at {@code epochSeconds} or later. */
    void awaitScrapedAfter(String job, double epochSeconds) {
        awaitQuery(job + " scraped after " + epochSeconds, "min(timestamp(up{job=\"" + job + "\"}))", epochSeconds);
    }

    private void awaitQuery(String what, String promql, double atLeast) {
        try {
            Poll.until(
                    what,
                    Duration.ofSeconds(30),
                    () -> instant(promql, System.currentTimeMillis() / 1000.0) >= atLeast);
        } catch (IllegalStateException e) {
            fail("Prometheus: " + e.getMessage() + ":\n" + GracefulDrainIT.tail(dir.resolve("prometheus.log")));
        }
    }

    /** The value of an instant query at {@code epochSeconds}; 0 when the result is empty. */
    double instant(String promql, double epochSeconds) throws IOException, InterruptedException {
        JsonArray result = query("query", promql, "&time=" + seconds(epochSeconds));
        if (result.isEmpty()) {
            return 0;
        }
        return Double.parseDouble(
                result.get(0).getAsJsonObject().getAsJsonArray("value").get(1).getAsString());
    }

    /** The series of a range query from {@code fromSeconds} to {@code toSeconds}, a point a second. */
    JsonArray range(String promql, double fromSeconds, double toSeconds) throws IOException, InterruptedException {
        return query(
                "query_range", promql, "&start=" + seconds(fromSeconds) + "&end=" + seconds(toSeconds) + "&step=1");
    }

    /** The values of {@code label} on the series {@code selector} matches. */
    JsonArray labelValues(String label, String selector) throws IOException, InterruptedException {
        return get("/api/v1/label/" + label + "/values?match%5B%5D="
                        + URLEncoder.encode(selector, StandardCharsets.UTF_8))
                .getAsJsonArray("data");
    }

    private JsonArray query(String endpoint, String promql, String times) throws IOException, InterruptedException {
        return get("/api/v1/" + endpoint + "?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8) + times)
                .getAsJsonObject("data")
                .getAsJsonArray("result");
    }

    /** The JSON answer of an API GET, which must be 200 (a query that does not parse is a 400 naming why). */
    private JsonObject get(String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url() + pathAndQuery))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), pathAndQuery + ": " + response.body());
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static String seconds(double epochSeconds) {
        return String.format(Locale.US, "%.3f", epochSeconds);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
