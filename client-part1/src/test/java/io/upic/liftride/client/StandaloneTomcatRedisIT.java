package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import io.upic.liftride.testkit.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link StandaloneTomcatIT} once more, with the same WAR on the Redis store: a real
 * redis-server (servlet/redis/redis.conf) and {@code -Dliftride.store=redis://...} on Tomcat's command
 * line, as a user puts it in CATALINA_OPTS. The small plans reconcile against Redis's count.
 */
class StandaloneTomcatRedisIT extends StandaloneTomcatIT {
    private RedisServer redis;

    @Override
    @BeforeAll
    void startTomcat() throws Exception {
        redis = RedisServer.start();
        startTomcat(List.of("-Dliftride.store=" + redis.url()));
    }

    @Override
    @AfterAll
    void stopTomcat() throws Exception {
        try {
            super.stopTomcat();
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
    }

    @Test
    void theDeployedWarStoresRidesInRedis() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(URI.create(tomcatUrl + "/skiers/77/seasons/2022/days/1/skiers/5"))
                        .timeout(Duration.ofSeconds(20))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":3,\"time\":20}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, post.statusCode(), post.body());
        assertEquals("1", redis.cli("GET", "{lr:77:2022}:rides"), "the ride's counter in Redis");

        HttpResponse<String> stats = http.send(
                HttpRequest.newBuilder(URI.create(managementUrl + "/statistics"))
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(
                redis.url(),
                JsonParser.parseString(stats.body())
                        .getAsJsonObject()
                        .get("store")
                        .getAsString());
    }
}
