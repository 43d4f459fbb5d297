package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two clients behind a trusted proxy (loopback, with X-Forwarded-For) on a server with the per-client
 * share at 10%, in memory and on Redis: once one client has created its budget of seasons, days and
 * skier days it gets 409 naming the budget, while the other still creates a new season, day and
 * skier (201); an operator raising the share through {@code /admin/limits} lets the first store
 * again, and every ride answered 201 is readable.
 */
@Timeout(90)
class ClientBudgetIT {
    private static final String RIDE = "{\"liftID\":10,\"time\":217}";
    private static final String GREEDY = "203.0.113.7";
    private static final String OTHER = "203.0.113.8";

    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void inMemoryOneClientsUsedUpBudgetLeavesRoomForAnotherUntilAnOperatorRaisesTheShare() throws Exception {
        budgetsHold(StoreSpec.DEFAULT);
    }

    @Test
    void onRedisOneClientsUsedUpBudgetLeavesRoomForAnotherUntilAnOperatorRaisesTheShare() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            budgetsHold(redis.url());
        }
    }

    private void budgetsHold(String store) throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, context -> {
            context.addParameter(StoreSpec.PROPERTY, store);
            context.addParameter(Limit.SEASONS_PER_RESORT.property(), "10");
            context.addParameter(Limit.RESORT_DAYS.property(), "20");
            context.addParameter(Limit.SKIER_DAYS.property(), "40");
            context.addParameter(Limit.CLIENT_SHARE_PERCENT.property(), "10");
        })) {
            String base = server.baseUrl();
            // each client's budgets: 1 season per resort, 2 days, 4 skier days
            assertEquals(201, post(base, ride(2001, 1, 1), GREEDY).statusCode());
            assertError(
                    post(base, ride(2002, 1, 1), GREEDY),
                    409,
                    "the per-client budget allows client " + GREEDY + " to create at most 1 of the server's 10"
                            + " seasons per resort (10%: --max-client-share, liftride.maxClientSharePercent,"
                            + " LIFTRIDE_MAX_CLIENT_SHARE_PERCENT); season 2002 at resort 5 would be one more,"
                            + " nothing was stored");
            assertEquals(201, post(base, ride(2001, 2, 1), GREEDY).statusCode());
            assertBudgetRefusal(post(base, ride(2001, 3, 1), GREEDY), "2 of the server's 20 resort days");
            assertEquals(201, post(base, ride(2001, 1, 2), GREEDY).statusCode());
            assertEquals(201, post(base, ride(2001, 1, 3), GREEDY).statusCode());
            assertBudgetRefusal(post(base, ride(2001, 1, 4), GREEDY), "4 of the server's 40 skier days");
            assertEquals(201, post(base, ride(2001, 1, 1), GREEDY).statusCode(), "its own entries take rides");

            assertEquals(201, post(base, ride(2002, 5, 9), OTHER).statusCode(), "new season, day and skier");
            assertEquals(201, post(base, ride(2001, 3, 4), OTHER).statusCode(), "the day and skier refused above");

            HttpResponse<String> raised = post(server.managementUrl(), "/admin/limits?max-client-share=50", null);
            assertEquals(200, raised.statusCode(), raised.body());
            assertTrue(raised.body().contains("\"max-client-share\":50"), raised.body());
            assertEquals(201, post(base, ride(2003, 1, 1), GREEDY).statusCode());
            assertEquals(201, post(base, ride(2001, 4, 5), GREEDY).statusCode());

            for (String stored : List.of(
                    ride(2001, 2, 1),
                    ride(2001, 1, 2),
                    ride(2001, 1, 3),
                    ride(2002, 5, 9),
                    ride(2001, 3, 4),
                    ride(2003, 1, 1),
                    ride(2001, 4, 5))) {
                assertEquals("100", get(base + stored).body(), stored + " is kept");
            }
            assertEquals("200", get(base + ride(2001, 1, 1)).body(), "both rides of skier 1 on day 1");
        }
    }

    /** Asserts a 409 naming {@code budget} of the per-client budget. */
    private static void assertBudgetRefusal(HttpResponse<String> response, String budget) {
        String message = JsonAssertions.errorMessage(response, 409);
        assertTrue(
                message.startsWith("the per-client budget allows client " + GREEDY + " to create at most " + budget),
                message);
    }

    private static String ride(int season, int day, int skier) {
        return "/skiers/5/seasons/" + season + "/days/" + day + "/skiers/" + skier;
    }

    /** A POST from {@code forwardedFor} as the local proxy names it, or the operator's POST when null. */
    private HttpResponse<String> post(String base, String path, String forwardedFor) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(forwardedFor == null ? "" : RIDE));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return client.send(request.build(), BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String url) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                BodyHandlers.ofString());
    }
}
