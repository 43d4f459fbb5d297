package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.testkit.RedisServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real local cluster (redis-server, two servers from servlet/target/liftride-server.jar, nginx): the front
 * spreads requests over both servers, every server answers from the same store, and it keeps answering
 * while one server or Redis is killed and after they come back. One cluster for the class.
 */
@Timeout(value = 300)
class LocalClusterIT {
    private static final Path JAR =
            Path.of(System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar"));
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private static final AtomicInteger KEYS = new AtomicInteger();
    private static final long NGINX_FAIL_TIMEOUT_MILLIS = 2_500;
    private static LocalCluster cluster;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(ClusterOptions.DEFAULTS.withPort(0).withServerJar(JAR));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theFrontSpreadsRidesOverBothServersWhichShareOneStore() throws Exception {
        long before = ridesStored(cluster.frontUrl());
        List<Long> postsBefore = new ArrayList<>();
        for (String server : cluster.serverUrls()) {
            postsBefore.add(postsServed(statistics(server)));
        }
        for (int i = 0; i < 20; i++) {
            assertEquals(201, postRide(cluster.frontUrl(), 11, i + 1).statusCode());
        }
        for (int i = 0; i < 2; i++) {
            String server = cluster.serverUrls().get(i);
            JsonObject stats = statistics(server);
            assertEquals(before + 20, stats.get("ridesStored").getAsLong(), server);
            assertFalse(stats.has("store"), "the API's port names no store: " + stats);
            String management = cluster.managementUrls().get(i);
            assertEquals(
                    cluster.storeSpec(), statistics(management).get("store").getAsString());
            long served = postsServed(stats) - postsBefore.get(i);
            assertTrue(served >= 5, "round robin gave " + server + " its share of 20 POSTs: " + served);
        }
        assertEquals(2, cluster.serverUrls().size());
        assertTrue(cluster.frontUrl().matches("http://127\\.0\\.0\\.1:\\d+/liftride"), cluster.frontUrl());
    }

    @Test
    void theFrontKeepsAnsweringWhileAServerIsDownAndTheRestartedServerSeesEveryRide() throws Exception {
        long before = ridesStored(cluster.frontUrl());
        cluster.killServer(0);
        try {
            int stored = 0;
            for (int i = 0; i < 20; i++) {
                // like the load client: a 502 (the POST met the dead server) is retried with the same key
                String key = "k" + KEYS.incrementAndGet();
                int status = 0;
                for (int attempt = 0; attempt < 5 && status != 201; attempt++) {
                    status = postRide(cluster.frontUrl(), 12, i + 1, key).statusCode();
                    assertTrue(status == 201 || status == 502, "status " + status);
                }
                stored += status == 201 ? 1 : 0;
                assertEquals(200, get(cluster.frontUrl() + "/statistics").statusCode(), "GETs go to the live server");
            }
            assertEquals(20, stored);
        } finally {
            cluster.restartServer(0);
            // time itself: nginx skips a server for 2 s after its last failure, and says nothing when it is back
            Thread.sleep(NGINX_FAIL_TIMEOUT_MILLIS);
        }
        assertEquals(before + 20, ridesStored(cluster.serverUrls().get(0)));
        assertEquals(before + 20, ridesStored(cluster.serverUrls().get(1)));
    }

    @Test
    void whileRedisIsDownEveryServerAnswers503AndAfterItsRestartNoRideIsLost() throws Exception {
        assertEquals(201, postRide(cluster.frontUrl(), 13, 1).statusCode());
        long before = ridesStored(cluster.frontUrl());
        awaitAofWritten();
        cluster.killRedis();
        try {
            for (String base : List.of(
                    cluster.frontUrl(),
                    cluster.serverUrls().get(0),
                    cluster.serverUrls().get(1))) {
                HttpResponse<String> refused = postRide(base, 13, 2);
                assertEquals(503, refused.statusCode(), base + ": " + refused.body());
                assertTrue(refused.headers().firstValue("Retry-After").isPresent(), base);
                assertTrue(refused.body().startsWith("{\"message\":"), refused.body());
            }
        } finally {
            cluster.restartRedis();
        }
        assertEquals(before, ridesStored(cluster.frontUrl()), "the AOF kept every ride, and no refused one");
        assertEquals(201, postRide(cluster.frontUrl(), 13, 2).statusCode(), "the servers reconnect by themselves");
    }

    /**
     * Waits until Redis has written its AOF buffer to the file. Normally that happens before it answers; with
     * appendfsync everysec on a disk whose fsync lags (a loaded machine), Redis postpones the write for up to 2 s
     * and a SIGKILL then loses what it acknowledged meanwhile: the window docs/server.md states. This test is about
     * the 503s and the recovery, so it kills Redis outside that window.
     */
    private static void awaitAofWritten() {
        Poll.until(
                "Redis writing its AOF buffer",
                Duration.ofSeconds(10),
                () -> Pattern.compile("(?m)^aof_buffer_length:0\\s*$")
                        .matcher(RedisServer.cli(cluster.redisAddress(), "INFO", "persistence"))
                        .find());
    }

    private static HttpResponse<String> postRide(String base, int resort, int skier) throws Exception {
        return postRide(base, resort, skier, "k" + KEYS.incrementAndGet());
    }

    private static HttpResponse<String> postRide(String base, int resort, int skier, String key) throws Exception {
        return send(
                HttpRequest.newBuilder(URI.create(base + "/skiers/" + resort + "/seasons/2022/days/1/skiers/" + skier))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", key)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":5,\"time\":10}")));
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(url)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject statistics(String base) throws Exception {
        HttpResponse<String> response = get(base + "/statistics");
        assertEquals(200, response.statusCode(), response.body());
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static long ridesStored(String base) throws Exception {
        return statistics(base).get("ridesStored").getAsLong();
    }

    private static long postsServed(JsonObject stats) {
        long count = 0;
        for (var endpoint : stats.getAsJsonArray("endpointStats")) {
            JsonObject e = endpoint.getAsJsonObject();
            if (e.get("operation").getAsString().equals("POST")) {
                count += e.get("count").getAsLong();
            }
        }
        return count;
    }
}
