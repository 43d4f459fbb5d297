package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The local cluster as on EC2: one server capped at 0.25 CPU in a cgroup of its own, the front
 * behind Toxiproxy with a 40 ms round trip. The server answers through the proxy no faster than the
 * round trip, nginx directly much faster; the server, which sees one CPU, runs 4 request threads; and the
 * cgroup is gone once the cluster stops. Needs root
 * (cgroups) and Go (Toxiproxy, installed once).
 */
@Tag("alone") // measures against the machine's capacity: no other test class beside it
@Timeout(value = 180)
class SmallServersSlowNetworkIT {
    private static final Path JAR =
            Path.of(System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar"));

    @Test
    void aCappedServerBehindA40MsRoundTripAnswersInNoLessThan40MsAndLeavesNoCgroup() throws Exception {
        List<Path> groups;
        try (LocalCluster cluster = LocalCluster.start(ClusterOptions.DEFAULTS
                .withServers(1)
                .withPort(0)
                .withServerJar(JAR)
                .withServerCpus(CpuQuota.of(0.25))
                .withWan(WanLink.ofMillis(40)))) {
            assertNotEquals(cluster.nginxUrl(), cluster.frontUrl());
            groups = cluster.serverCgroups();
            assertEquals(1, groups.size());
            String period = Files.exists(groups.get(0).resolve("cpu.max"))
                    ? Files.readString(groups.get(0).resolve("cpu.max")).trim()
                    : Files.readString(groups.get(0).resolve("cpu.cfs_quota_us"))
                                    .trim() + " "
                            + Files.readString(groups.get(0).resolve("cpu.cfs_period_us"))
                                    .trim();
            assertEquals("2500 10000", period);
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (int i = 0; i < 3; i++) {
                long startNanos = System.nanoTime();
                assertEquals(200, get(http, cluster.frontUrl() + "/statistics"));
                long tookNanos = System.nanoTime() - startNanos;
                assertTrue(tookNanos >= 40_000_000, "a GET through the 40 ms proxy took " + tookNanos / 1e6 + " ms");
            }
            assertEquals(200, get(http, cluster.nginxUrl() + "/statistics"));
            // the capped JVM sees one CPU, so its connector runs a few request threads, not 256
            String metrics = http.send(
                            HttpRequest.newBuilder(
                                            URI.create(cluster.managementUrls().get(0) + "/metrics"))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertTrue(
                    Pattern.compile("^tomcat_threads_config_max\\{[^}]*} 4\\.0$", Pattern.MULTILINE)
                            .matcher(metrics)
                            .find(),
                    "a 0.25-CPU server runs 4 request threads:\n" + metrics);
        }
        assertFalse(Files.exists(groups.get(0)), "the server's cgroup is removed at close: " + groups.get(0));
    }

    private static int get(HttpClient http, String url) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
