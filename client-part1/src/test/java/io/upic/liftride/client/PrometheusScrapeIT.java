package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.cluster.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Prometheus (Debian's {@code prometheus} package, installed when missing) scrapes the local
 * cluster's two servers (their management ports) every second during a client-part1 run through nginx;
 * the ride POST rate it computes from the servers' {@code /metrics}, summed over both, must agree with
 * the client's own throughput within 10%. The query is the one docs/operating.md tells users to graph.
 */
@Timeout(value = 170, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusScrapeIT {
    private static final String RIDE_ROUTE = "/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}";

    @Test
    void prometheusSeesTheRidePostRateSummedOverServersThatTheClientMeasured() throws Exception {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        try (LocalCluster cluster = LocalCluster.start(
                        ClusterOptions.DEFAULTS.withServers(2).withPort(0).withServerJar(Path.of(jar)));
                PrometheusServer prometheus = PrometheusServer.start(
                        cluster.runDir().resolve("prometheus"),
                        List.of(new PrometheusServer.Job(
                                "liftride",
                                "/liftride/metrics",
                                cluster.managementUrls().stream()
                                        .map(PrometheusServer::authority)
                                        .toList())))) {
            prometheus.awaitTargetsUp("liftride", 2);
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
            prometheus.awaitScrapedAfter("liftride", endMillis / 1000.0 + 1);

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
}
