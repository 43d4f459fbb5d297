package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.cluster.LocalCluster;
import io.upic.liftride.testkit.FreePorts;
import io.upic.liftride.testkit.Poll;
import io.upic.liftride.testkit.Programs;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Prometheus (Debian's {@code prometheus} package, installed when missing) scrapes the local
 * cluster's two servers every second during a client-part1 run through nginx; the ride POST rate it
 * computes from the servers' {@code /metrics}, summed over both, must agree with the client's own
 * throughput within 10%. The query is the one docs/operating.md tells users to graph.
 */
@Timeout(value = 170, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusScrapeIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String RIDE_ROUTE = "/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}";

    @Test
    void prometheusSeesTheRidePostRateSummedOverServersThatTheClientMeasured() throws Exception {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        String prometheusBinary = Programs.require("prometheus", "prometheus");
        try (LocalCluster cluster = LocalCluster.start(
                        ClusterOptions.DEFAULTS.withServers(2).withPort(0).withServerJar(Path.of(jar)));
                Prometheus prometheus = Prometheus.start(
                        prometheusBinary, cluster.runDir().resolve("prometheus"), cluster.serverUrls())) {
            prometheus.awaitTargetsUp(2);
            long startMillis = System.currentTimeMillis();
            ClientRun run = ClientRun.of(
                    "-t",
                    "32",
                    "-s",
                    "10000",
                    "-m",
                    "5",
                    "--baseline",
                    "0",
                    "--resort",
                    "41",
                    "-i",
                    cluster.frontUrl());
            long endMillis = System.currentTimeMillis();
            RunResult r = run.result();
            assertEquals(0, run.exit(), run.output());
            double clientRate = r.requests().successful() * 1000.0 / (endMillis - startMillis);
            // two scrapes after the run's end: its last second is in Prometheus
            prometheus.awaitScrapedAfter(endMillis / 1000.0 + 1);

            long windowMillis = endMillis - startMillis; // the run exactly: PromQL takes milliseconds
            String query = "sum(rate(liftride_http_requests_seconds_count{method=\"POST\",route=\"" + RIDE_ROUTE
                    + "\",status=\"201\"}[" + windowMillis + "ms]))";
            double prometheusRate = prometheus.instant(query, endMillis / 1000.0);
            double ratio = prometheusRate / clientRate;
            System.out.printf(
                    Locale.US,
                    "Prometheus %s at the run's end: %.0f rides/s; the client: %,d successful in %d ms = %.0f/s;"
                            + " ratio %.3f%n",
                    query,
                    prometheusRate,
                    r.requests().successful(),
                    endMillis - startMillis,
                    clientRate,
                    ratio);
            assertTrue(
                    Math.abs(ratio - 1) <= 0.10,
                    "within 10%: Prometheus " + prometheusRate + "/s, client " + clientRate + "/s\n" + run.output());
            double servers = prometheus.instant(
                    "count(sum by (instance) (liftride_http_requests_seconds_count{method=\"POST\"}))",
                    endMillis / 1000.0);
            assertEquals(2.0, servers, "both servers took rides and were scraped");
        }
    }

    /** A Prometheus server on a free loopback port, scraping the servers' /metrics every second. */
    private record Prometheus(Process process, int port, Path dir) implements AutoCloseable {
        static Prometheus start(String binary, Path dir, List<String> serverUrls) throws Exception {
            Files.createDirectories(dir.resolve("data"));
            String targets = serverUrls.stream()
                    .map(url -> "'" + URI.create(url).getAuthority() + "'")
                    .collect(Collectors.joining(", "));
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      scrape_timeout: 1s
                    scrape_configs:
                      - job_name: liftride
                        metrics_path: /liftride/metrics
                        static_configs:
                          - targets: [%s]
                    """.formatted(targets));
            int port = FreePorts.next();
            Process process = new ProcessBuilder(
                            binary,
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("data"),
                            "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("prometheus.log").toFile())
                    .start();
            Prometheus prometheus = new Prometheus(process, port, dir);
            GracefulDrainIT.awaitStatus(prometheus.url() + "/-/ready", process, dir.resolve("prometheus.log"));
            return prometheus;
        }

        String url() {
            return "http://127.0.0.1:" + port;
        }

        /** Waits (30 s at most) until {@code count} targets report up. */
        void awaitTargetsUp(int count) {
            awaitQuery(count + " servers scraped", "sum(up{job=\"liftride\"})", count);
        }

        /** Waits (30 s at most) until every target was last scraped at {@code epochSeconds} or later. */
        void awaitScrapedAfter(double epochSeconds) {
            awaitQuery("a scrape after " + epochSeconds, "min(timestamp(up{job=\"liftride\"}))", epochSeconds);
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
            String uri = url() + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8) + "&time="
                    + String.format(Locale.US, "%.3f", epochSeconds);
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(uri))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), promql + ": " + response.body());
            JsonObject body = JsonParser.parseString(response.body()).getAsJsonObject();
            JsonArray result = body.getAsJsonObject("data").getAsJsonArray("result");
            if (result.isEmpty()) {
                return 0;
            }
            return Double.parseDouble(result.get(0)
                    .getAsJsonObject()
                    .getAsJsonArray("value")
                    .get(1)
                    .getAsString());
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
