package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readiness means "can store a new ride now": a real redis-server whose maxmemory is set 2 MiB above
 * what it uses is filled past it by one 3 MB string; {@code /health/ready} answers 503 while a new
 * ride is refused (503), and 200 again, with new rides stored, once the string is deleted.
 */
@Timeout(60)
class RedisFullReadinessIT {
    private static final String RIDE = "{\"liftID\":10,\"time\":217}";

    @Test
    void isNotReadyWhileRedisIsAtItsMaxmemoryAndReadyAgainWhenRoomReturns() throws Exception {
        try (RedisServer redis = RedisServer.start();
                EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()))) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String base = server.baseUrl();
            assertEquals(201, post(client, base, 1).statusCode());
            long used = RedisMemory.parse(redis.cli("INFO", "memory")).usedBytes();
            redis.cli("CONFIG", "SET", "maxmemory", Long.toString(used + (2 << 20)));
            assertEquals(200, get(client, base + "/health/ready").statusCode());

            redis.cli("SETRANGE", "filler", Integer.toString(3_000_000), "x");
            HttpResponse<String> full = get(client, server.managementUrl() + "/health/ready");
            assertEquals(503, full.statusCode(), full.body());
            assertTrue(full.body().contains("Redis is full"), full.body());
            assertEquals(503, post(client, base, 2).statusCode(), "Redis refuses a new skier day's write");

            redis.cli("DEL", "filler");
            assertEquals(200, get(client, base + "/health/ready").statusCode());
            assertEquals(201, post(client, base, 3).statusCode());
        }
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(HttpClient client, String base, int skier) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(base + "/skiers/1/seasons/2022/days/1/skiers/" + skier))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(RIDE))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
