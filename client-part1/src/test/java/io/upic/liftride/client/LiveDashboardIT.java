package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.LocalCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.FutureTask;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped Grafana dashboard against a real Prometheus that scraped a real two-shard run: two in-process clients
 * ({@code --shard 1/2}, {@code 2/2}, each with {@code --metrics-port}) load two servers through nginx while
 * Prometheus scrapes all four every second. Then every panel's query (and every template variable's) parses and
 * returns series over the run; the shards' rides over the window equal the servers' within 2%, and the ride rate
 * docs/operating.md tells users to graph, summed over both servers, is within 10% of the shards' own; and each
 * client's last scraped counters equal its own final counts.
 */
@Timeout(value = 170, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LiveDashboardIT {
    private static final Path DASHBOARD = Path.of("../cluster/grafana/liftride.json");
    private static final String RIDE_ROUTE = "/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}";
    private static final String RIDES_STORED =
            "liftride_http_requests_seconds_count{method=\"POST\",status=\"201\",route=\"" + RIDE_ROUTE + "\"}";
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*(\\w+)\\)");

    @Test
    void everyPanelAnswersAndTheShardsRidesAreTheServersRides() throws Exception {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        List<Integer> ports = List.of(FreePorts.next(), FreePorts.next());
        try (LocalCluster cluster = LocalCluster.start(
                        ClusterOptions.DEFAULTS.withServers(2).withPort(0).withServerJar(Path.of(jar)));
                PrometheusServer prometheus = PrometheusServer.start(
                        cluster.runDir().resolve("prometheus"),
                        List.of(
                                new PrometheusServer.Job(
                                        "liftride",
                                        "/liftride/metrics",
                                        cluster.managementUrls().stream()
                                                .map(PrometheusServer::authority)
                                                .toList()),
                                new PrometheusServer.Job(
                                        "liftride-client",
                                        "/metrics",
                                        ports.stream()
                                                .map(p -> "127.0.0.1:" + p)
                                                .toList())))) {
            prometheus.awaitTargetsUp("liftride", 2);
            for (String server : cluster.serverUrls()) {
                postOneRide(server); // its rides-stored series exists before the window opens
            }
            double from = now();
            prometheus.awaitScrapedAfter("liftride", from);

            List<ClientRun> shards = runShards(cluster.frontUrl(), ports);
            prometheus.awaitScrapedAfter("liftride", now() + 1);
            double to = now();
            long windowMillis = Math.round((to - from) * 1000);

            double shardRides = 0;
            for (ClientRun shard : shards) {
                RunResult r = shard.result();
                assertEquals(r.requests().planned(), r.requests().successful(), shard.output());
                String selector =
                        "{shard=\"" + shard.reports().get(0).config().workload().shard() + "\"}";
                double successful = last(prometheus, "liftride_client_requests_successful_total" + selector, to);
                assertEquals(r.requests().successful(), successful, "successful, live vs the account " + selector);
                assertEquals(
                        r.requests().failed(),
                        last(prometheus, "liftride_client_requests_failed_total" + selector, to),
                        "failed " + selector);
                assertEquals(
                        r.requests().retries(),
                        last(prometheus, "liftride_client_retries_total" + selector, to),
                        "retries " + selector);
                shardRides += successful;
            }
            double serverRides = prometheus.instant(
                    "sum(max_over_time(" + RIDES_STORED + "[" + windowMillis + "ms]) - min_over_time(" + RIDES_STORED
                            + "[" + windowMillis + "ms]))",
                    to);
            double seconds = windowMillis / 1000.0;
            System.out.printf(
                    Locale.US,
                    "over %.1f s: shards %.0f rides (%.0f/s), servers %.0f rides (%.0f/s); rate(): shards %.0f/s,"
                            + " servers %.0f/s%n",
                    seconds,
                    shardRides,
                    shardRides / seconds,
                    serverRides,
                    serverRides / seconds,
                    prometheus.instant(
                            "sum(rate(liftride_client_requests_successful_total[" + windowMillis + "ms]))", to),
                    prometheus.instant("sum(rate(" + RIDES_STORED + "[" + windowMillis + "ms]))", to));
            assertTrue(shardRides > 0, "the shards sent rides");
            assertTrue(
                    Math.abs(shardRides / serverRides - 1) <= 0.02,
                    "the shards' ride rate within 2% of the servers': " + shardRides + " vs " + serverRides);
            double graphed = prometheus.instant(
                    "sum(rate(liftride_http_requests_seconds_count{method=\"POST\",route=\"" + RIDE_ROUTE + "\"}["
                            + windowMillis + "ms]))",
                    to);
            assertTrue(
                    Math.abs(graphed / (shardRides / seconds) - 1) <= 0.10,
                    "operating.md's ride rate within 10% of the shards': " + graphed + "/s vs " + shardRides / seconds);
            assertEquals(
                    2.0,
                    prometheus.instant(
                            "count(sum by (instance) (liftride_http_requests_seconds_count{method=\"POST\"}))", to),
                    "both servers took rides and were scraped");

            everyQueryAnswers(prometheus, from, to);
        }
    }

    /** Both shards at once, each serving its live metrics on its own port; their runs once both have returned. */
    private static List<ClientRun> runShards(String frontUrl, List<Integer> ports) throws Exception {
        List<FutureTask<ClientRun>> runs = new ArrayList<>();
        for (int k = 1; k <= ports.size(); k++) {
            String[] args = {
                "-t",
                "16",
                "-s",
                "4000",
                "-m",
                "5",
                "--baseline",
                "0",
                "--resort",
                "43",
                "-i",
                frontUrl,
                "--shard",
                k + "/" + ports.size(),
                "--metrics-port",
                "127.0.0.1:" + ports.get(k - 1)
            };
            FutureTask<ClientRun> run = new FutureTask<>(() -> ClientRun.of(args));
            new Thread(run, "shard-" + k).start();
            runs.add(run);
        }
        List<ClientRun> done = new ArrayList<>();
        for (FutureTask<ClientRun> run : runs) {
            done.add(run.get());
        }
        return done;
    }

    /** Every panel target and template variable of the dashboard returns series over the run's window. */
    private static void everyQueryAnswers(PrometheusServer prometheus, double from, double to) throws Exception {
        JsonObject dashboard =
                JsonParser.parseString(Files.readString(DASHBOARD)).getAsJsonObject();
        int queries = 0;
        for (JsonElement panel : dashboard.getAsJsonArray("panels")) {
            String title = panel.getAsJsonObject().get("title").getAsString();
            for (JsonElement target : panel.getAsJsonObject().getAsJsonArray("targets")) {
                String expr = grafana(target.getAsJsonObject().get("expr").getAsString());
                assertFalse(prometheus.range(expr, from, to).isEmpty(), title + ": no series for " + expr);
                queries++;
            }
        }
        for (JsonElement variable : dashboard.getAsJsonObject("templating").getAsJsonArray("list")) {
            JsonObject v = variable.getAsJsonObject();
            if (v.get("type").getAsString().equals("query")) {
                Matcher m = LABEL_VALUES.matcher(v.get("definition").getAsString());
                assertTrue(m.matches(), v.toString());
                String selector = grafana(m.group(1));
                assertFalse(prometheus.labelValues(m.group(2), selector).isEmpty(), "variable " + v.get("name"));
                queries++;
            }
        }
        System.out.println("the dashboard's " + queries + " queries all answered");
        assertTrue(queries >= 20, "the dashboard has its panels: " + queries);
    }

    /** A query as Grafana sends it with every variable at All and a rate interval of four 1 s scrapes plus one. */
    private static String grafana(String expr) {
        return expr.replace("$run_id", ".*").replace("$shard", ".*").replace("$__rate_interval", "5s");
    }

    /** The sum over phases (and causes) of a series' last value in the 10 minutes before {@code at}. */
    private static double last(PrometheusServer prometheus, String selector, double at) throws Exception {
        return prometheus.instant("sum(last_over_time(" + selector + "[10m]))", at);
    }

    private static void postOneRide(String serverUrl) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(serverUrl + "/skiers/42/seasons/2022/days/1/skiers/1"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"time\": 1, \"liftID\": 1}"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
    }

    private static double now() {
        return System.currentTimeMillis() / 1000.0;
    }
}
