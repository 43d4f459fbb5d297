package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.IdempotencyKeyIT.post;
import static io.upic.liftride.server.embedded.IdempotencyKeyIT.ridesStored;
import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two embedded servers sharing one real redis-server, through real HTTP: same answers, and 503 when it is down. */
@Timeout(120)
class SharedRedisIT {
    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";
    private static RedisServer redis;
    private static EmbeddedServer a;
    private static EmbeddedServer b;
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        a = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()));
        b = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {a, b, redis}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static HttpResponse<String> get(EmbeddedServer server, String path)
            throws IOException, InterruptedException {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                BodyHandlers.ofString());
    }

    @Test
    void bothServersAnswerEveryGetTheSameAndCountTheSameRides() throws Exception {
        long before = ridesStored(a.baseUrl());
        for (int skier = 1; skier <= 20; skier++) {
            EmbeddedServer to = skier % 2 == 0 ? a : b;
            String path = "/skiers/5/seasons/2022/days/2/skiers/" + skier;
            assertEquals(201, post(to.baseUrl(), path, null, RIDE).statusCode());
            assertEquals(201, post(to.baseUrl(), path, null, RIDE).statusCode());
        }
        assertEquals(before + 40, ridesStored(a.baseUrl()));
        assertEquals(ridesStored(a.baseUrl()), ridesStored(b.baseUrl()));
        for (String path : List.of(
                "/skiers/5/seasons/2022/days/2/skiers/7",
                "/skiers/7/vertical?resort=5",
                "/resorts/5/seasons/2022/day/2/skiers",
                "/resorts/5/seasons",
                "/resorts")) {
            HttpResponse<String> fromA = get(a, path);
            assertEquals(200, fromA.statusCode(), path + ": " + fromA.body());
            assertEquals(fromA.body(), get(b, path).body(), path);
        }
        assertEquals("420", get(a, "/skiers/5/seasons/2022/days/2/skiers/7").body());
        assertEquals(
                "{\"time\":\"Mt. Baker\",\"numSkiers\":20}",
                get(b, "/resorts/5/seasons/2022/day/2/skiers").body());
        JsonObject stats = JsonParser.parseString(CLIENT.send(
                                HttpRequest.newBuilder(URI.create(b.managementUrl() + "/statistics"))
                                        .build(),
                                BodyHandlers.ofString())
                        .body())
                .getAsJsonObject();
        assertEquals(redis.url(), stats.get("store").getAsString());
    }

    @Test
    void aRetryOnTheOtherServerIsAReplay() throws Exception {
        long before = ridesStored(a.baseUrl());
        String path = "/skiers/6/seasons/2022/days/1/skiers/99";
        assertEquals(201, post(a.baseUrl(), path, "shared-1", RIDE).statusCode());
        HttpResponse<String> retry = post(b.baseUrl(), path, "shared-1", RIDE);
        assertEquals(201, retry.statusCode());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(null));
        assertEquals(before + 1, ridesStored(b.baseUrl()));
    }

    @Test
    void answers503WithRetryAfterWhileRedisIsDownAndRecoversByItself() throws Exception {
        redis.kill();
        try {
            long start = System.nanoTime();
            HttpResponse<String> write = post(a.baseUrl(), "/skiers/7/seasons/2022/days/1/skiers/1", "down-1", RIDE);
            HttpResponse<String> read = get(b, "/skiers/7/seasons/2022/days/1/skiers/1");
            HttpResponse<String> stats = get(a, "/statistics");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            for (HttpResponse<String> r : List.of(write, read, stats)) {
                assertTrue(errorMessage(r, 503).startsWith("the ride store is unavailable ("), r.body());
                assertEquals("1", r.headers().firstValue("Retry-After").orElse(null));
            }
            assertTrue(millis < 10_000, "three 503s took " + millis + " ms");
        } finally {
            redis.restart();
        }
        assertEquals(
                201,
                post(a.baseUrl(), "/skiers/7/seasons/2022/days/1/skiers/1", "down-1", RIDE)
                        .statusCode());
        assertEquals("210", get(b, "/skiers/7/seasons/2022/days/1/skiers/1").body());
    }
}
