package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client uses up the season limit of a Redis-backed server (409, the in-memory store's message);
 * an operator raises it at runtime through {@code POST /admin/limits}, without a restart: the refused
 * season's ride is stored and every earlier ride is still there.
 */
@Timeout(60)
class OperatorLimitsIT {
    private static final String RIDE = "{\"liftID\":10,\"time\":217}";

    @Test
    void anOperatorRaisesAUsedUpLimitAtRuntimeAndKeepsEveryRide() throws Exception {
        try (RedisServer redis = RedisServer.start();
                EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, context -> {
                    context.addParameter(StoreSpec.PROPERTY, redis.url());
                    context.addParameter(Limit.SEASONS_PER_RESORT.property(), "3");
                    context.addParameter(Limit.CLIENT_SHARE_PERCENT.property(), "100"); // one client fills it
                })) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String base = server.baseUrl();
            for (int season = 2001; season <= 2003; season++) {
                assertEquals(201, send(client, base + ride(season), RIDE).statusCode());
            }
            assertError(
                    send(client, base + ride(2004), RIDE),
                    409,
                    "the server holds at most 3 seasons per resort (--max-seasons, liftride.maxSeasonsPerResort,"
                            + " LIFTRIDE_MAX_SEASONS_PER_RESORT); season 2004 at resort 5 would be one more,"
                            + " nothing was stored");

            assertError(
                    send(client, server.managementUrl() + "/admin/limits?max-seasons=0", ""),
                    400,
                    "--max-seasons / liftride.maxSeasonsPerResort / LIFTRIDE_MAX_SEASONS_PER_RESORT must be an"
                            + " integer in 1..10000, got \"0\"");
            assertError(
                    send(client, server.managementUrl() + "/admin/limits?max-key-bytes=1", ""),
                    400,
                    "a limit settable at runtime must be one of [max-resorts, max-seasons, max-days,"
                            + " max-skier-days, max-client-share], got \"max-key-bytes\"");
            HttpResponse<String> raised = send(client, server.managementUrl() + "/admin/limits?max-seasons=4", "");
            assertEquals(200, raised.statusCode(), raised.body());
            assertEquals(
                    "{\"max-resorts\":1000,\"max-seasons\":4,\"max-days\":25000,\"max-skier-days\":250000,"
                            + "\"max-client-share\":100}",
                    raised.body());

            assertEquals(201, send(client, base + ride(2004), RIDE).statusCode());
            assertEquals(409, send(client, base + ride(2005), RIDE).statusCode());
            for (int season = 2001; season <= 2004; season++) {
                HttpResponse<String> vertical = send(client, base + ride(season), null);
                assertEquals("100", vertical.body(), "season " + season + "'s ride is kept");
            }
        }
    }

    private static String ride(int season) {
        return "/skiers/5/seasons/" + season + "/days/1/skiers/7";
    }

    /** A POST of {@code body}, or a GET when it is null. */
    private static HttpResponse<String> send(HttpClient client, String url, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (body != null) {
            request.header("Content-Type", "application/json").POST(BodyPublishers.ofString(body));
        }
        return client.send(request.build(), BodyHandlers.ofString());
    }
}
