package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A small flood against a server whose limits are set small through the launcher's context
 * parameters: POSTs to ever new resorts, seasons and days get 201 until a limit is reached, then 409
 * with a message naming it, never a 5XX; rides to existing keys sent during the flood are all stored
 * and readable; the server's ride count is exactly its 201s.
 */
@Timeout(60)
class StoreLimitsIT {
    private static final String RIDE = "{\"liftID\":10,\"time\":217}";
    private static final int MAX_RESORTS = 20;
    private static final int MAX_DAYS = 60;
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0, "127.0.0.1", 0, ConnectorSettings.LOAD_TEST, context -> {
            context.addParameter(Limit.RESORTS.property(), Integer.toString(MAX_RESORTS));
            context.addParameter(Limit.SEASONS_PER_RESORT.property(), "3");
            context.addParameter(Limit.RESORT_DAYS.property(), Integer.toString(MAX_DAYS));
            context.addParameter(Limit.SKIER_DAYS.property(), "500");
            context.addParameter(Limit.CLIENT_SHARE_PERCENT.property(), "100"); // one client fills every limit
        });
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * POSTs with a fresh Idempotency-Key, and sends the same request once more if the first attempt lost its
     * connection: java.net.http now and then hands a request to a pooled connection it is closing ("header
     * parser received no bytes", seen once in four full runs), and the key makes that retry store the ride
     * at most once, so the exact counts below still hold.
     */
    private static HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(BodyPublishers.ofString(body))
                .build();
        try {
            return client.send(request, BodyHandlers.ofString());
        } catch (IOException lostConnection) {
            return client.send(request, BodyHandlers.ofString());
        }
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                BodyHandlers.ofString());
    }

    @Test
    void aFloodOfNewKeysGets409PastTheLimitsWhileRidesToExistingKeysAreAllStored() throws Exception {
        long storedBefore = ridesStored();
        Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        AtomicLong existingStored = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int thread = t;
            work.add(pool.submit(() -> {
                for (int i = 0; i < 150; i++) {
                    int n = thread * 1_000 + i;
                    // a new resort, season and day every time (resort ids past the 10 seeded ones)
                    HttpResponse<String> flood = post(
                            "/skiers/" + (100 + n) + "/seasons/" + (2000 + n % 50) + "/days/" + (1 + n % 366)
                                    + "/skiers/" + (1 + n % 1000),
                            RIDE);
                    statuses.computeIfAbsent(flood.statusCode(), s -> new AtomicLong())
                            .incrementAndGet();
                    if (flood.statusCode() == 409) {
                        assertTrue(flood.body().contains("the server holds at most"), flood.body());
                    }
                    // a ride to a resort, season and day that exist (skier = thread, so readable below)
                    HttpResponse<String> existing = post("/skiers/1/seasons/2022/days/1/skiers/" + (thread + 1), RIDE);
                    assertEquals(201, existing.statusCode(), existing.body());
                    existingStored.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> future : work) {
            future.get();
        }
        pool.shutdown();
        Map<Integer, Long> byStatus = new TreeMap<>();
        statuses.forEach((status, count) -> byStatus.put(status, count.get()));
        assertEquals(List.of(201, 409), List.copyOf(byStatus.keySet()), "only 201 and 409: " + byStatus);
        assertTrue(byStatus.get(201) <= MAX_RESORTS, "flood 201s bounded by the resort limit: " + byStatus);
        assertEquals(byStatus.get(201) + existingStored.get(), ridesStored() - storedBefore, byStatus.toString());
        for (int skier = 1; skier <= 8; skier++) {
            HttpResponse<String> vertical = get("/skiers/1/seasons/2022/days/1/skiers/" + skier);
            assertEquals(200, vertical.statusCode(), vertical.body());
            assertEquals(Long.toString(150L * 100), vertical.body(), "skier " + skier + ": every ride stored");
        }
    }

    @Test
    void aSeasonPastThePerResortLimitIs409AndTheResortKeepsItsSeasons() throws Exception {
        for (String year : new String[] {"2001", "2002", "2003"}) {
            assertEquals(
                    201,
                    post("/resorts/5/seasons", "{\"year\":\"" + year + "\"}").statusCode());
        }
        assertError(
                post("/resorts/5/seasons", "{\"year\":\"2004\"}"),
                409,
                "the server holds at most 3 seasons per resort (--max-seasons, liftride.maxSeasonsPerResort,"
                        + " LIFTRIDE_MAX_SEASONS_PER_RESORT); season 2004 at resort 5 would be one more,"
                        + " nothing was stored");
        assertEquals(201, post("/resorts/5/seasons", "{\"year\":\"2002\"}").statusCode(), "an existing one is fine");
        assertEquals(
                "{\"seasons\":[\"2001\",\"2002\",\"2003\"]}",
                get("/resorts/5/seasons").body());
    }

    private static long ridesStored() throws IOException, InterruptedException {
        String body = get("/statistics").body();
        int at = body.indexOf("\"ridesStored\":") + "\"ridesStored\":".length();
        int end = at;
        while (end < body.length() && Character.isDigit(body.charAt(end))) {
            end++;
        }
        return Long.parseLong(body.substring(at, end));
    }
}
