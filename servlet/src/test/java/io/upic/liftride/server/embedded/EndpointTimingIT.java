package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code /statistics} counts: every answer a route gave (2XX, a 400 from validation, a 404 for
 * missing data), never a 404 for an unknown path nor a 405.
 */
@Timeout(60)
class EndpointTimingIT {
    private static final String SKIER_DAY = "/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}";

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private int send(EmbeddedServer server, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body))
                .build();
        return client.send(request, BodyHandlers.discarding()).statusCode();
    }

    /** The endpoint counts /statistics reports, as "METHOD URL" to count, sorted. */
    private Map<String, Long> counts(EmbeddedServer server) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/statistics"))
                .timeout(Duration.ofSeconds(10))
                .build();
        JsonObject stats = JsonParser.parseString(
                        client.send(request, BodyHandlers.ofString()).body())
                .getAsJsonObject();
        Map<String, Long> counts = new TreeMap<>();
        for (JsonElement element : stats.getAsJsonArray("endpointStats")) {
            JsonObject endpoint = element.getAsJsonObject();
            counts.put(
                    endpoint.get("operation").getAsString() + " "
                            + endpoint.get("URL").getAsString(),
                    endpoint.get("count").getAsLong());
        }
        return counts;
    }

    @Test
    void countsEveryAnswerOfARouteAndNeitherUnknownPathsNorRefusedMethods() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            String ride = "/skiers/1/seasons/2022/days/1/skiers/5";
            assertEquals(201, send(server, "POST", ride, "{\"liftID\":21,\"time\":217}"));
            assertEquals(400, send(server, "POST", ride, "{\"liftID\":61,\"time\":217}"));
            assertEquals(200, send(server, "GET", ride, null));
            assertEquals(404, send(server, "GET", "/skiers/1/seasons/2022/days/1/skiers/6", null)); // no data: timed
            // not an endpoint: no route, or a method the route does not allow
            assertEquals(404, send(server, "GET", "/nowhere", null));
            assertEquals(404, send(server, "GET", "/statistics/x", null));
            assertEquals(405, send(server, "POST", "/resorts", "{}"));
            assertEquals(405, send(server, "PUT", ride, "{}"));
            assertEquals(405, send(server, "DELETE", "/statistics", null));

            assertEquals(Map.of("GET " + SKIER_DAY, 2L, "POST " + SKIER_DAY, 2L), counts(server));
            assertEquals(
                    Map.of("GET " + SKIER_DAY, 2L, "POST " + SKIER_DAY, 2L, "GET /statistics", 1L),
                    counts(server),
                    "the first GET /statistics is counted once it has answered");
        }
    }
}
