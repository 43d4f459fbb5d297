package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A POST to the Redis store is answered from the group commit's completion, not by a request thread
 * waiting for it: with Redis holding writes, the 201 comes only once the ride is applied, and the
 * request's time in /statistics runs from its start to that answer; past the store's timeouts it is a
 * 503 with Retry-After and the ride is never applied.
 */
@Timeout(60)
class RedisAnsweredLaterIT {
    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static RedisServer redis;
    private static EmbeddedServer server;

    @BeforeAll
    static void start() {
        redis = RedisServer.start();
        server = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static HttpResponse<String> post(String path) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                        .timeout(Duration.ofSeconds(20))
                        .header("Content-Type", "application/json")
                        .POST(BodyPublishers.ofString(RIDE))
                        .build(),
                BodyHandlers.ofString());
    }

    private static JsonObject statistics() throws Exception {
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/statistics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                BodyHandlers.ofString());
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    private static long postMaxMicros() throws Exception {
        for (JsonElement element : statistics().getAsJsonArray("endpointStats")) {
            JsonObject endpoint = element.getAsJsonObject();
            if (endpoint.get("operation").getAsString().equals("POST")) {
                return endpoint.get("maxMicros").getAsLong();
            }
        }
        throw new AssertionError("no POST in /statistics");
    }

    @Test
    void answers201OnlyOnceRedisAppliedTheRideAndTimesTheWholeRequest() throws Exception {
        assertEquals(201, post("/skiers/1/seasons/2022/days/1/skiers/1").statusCode());
        long before = statistics().get("ridesStored").getAsLong();
        redis.cli("CLIENT", "PAUSE", "600", "WRITE");
        long start = System.nanoTime();
        HttpResponse<String> response = post("/skiers/1/seasons/2022/days/1/skiers/2");
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(201, response.statusCode(), response.body());
        assertTrue(tookMillis >= 450, "answered only after Redis let the write through: " + tookMillis + " ms");
        assertEquals(before + 1, statistics().get("ridesStored").getAsLong());
        assertTrue(postMaxMicros() >= 450_000, "the POST's time runs to its answer: " + postMaxMicros() + " µs");
    }

    @Test
    void answers503WithRetryAfterAndAppliesNothingWhenRedisHoldsWritesPastTheTimeouts() throws Exception {
        long before = statistics().get("ridesStored").getAsLong();
        redis.cli("CLIENT", "PAUSE", "4000", "WRITE");
        HttpResponse<String> response = post("/skiers/1/seasons/2022/days/1/skiers/3");
        assertEquals(503, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Retry-After").isPresent(), "Retry-After");
        assertTrue(response.body().contains("\"message\""), response.body());
        redis.cli("CLIENT", "UNPAUSE");
        Thread.sleep(300); // a batch Redis held would be applied now, if the deadline did not refuse it
        assertEquals(before, statistics().get("ridesStored").getAsLong(), "a 503 means not applied");
        assertEquals(404, getStatus("/skiers/1/seasons/2022/days/1/skiers/3"));
    }

    private static int getStatus(String path) throws Exception {
        return CLIENT.send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        BodyHandlers.discarding())
                .statusCode();
    }
}
