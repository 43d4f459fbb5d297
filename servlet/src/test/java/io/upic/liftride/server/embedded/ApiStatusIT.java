package io.upic.liftride.server.embedded;

import static io.upic.liftride.server.embedded.JsonAssertions.JSON;
import static io.upic.liftride.server.embedded.JsonAssertions.assertError;
import static io.upic.liftride.server.embedded.JsonAssertions.errorMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every status code of the contract through real HTTP on the embedded server. Tests use their own
 * resort and skier IDs, so they do not depend on each other's rides.
 */
@Timeout(60)
class ApiStatusIT {
    private static final String RIDE = "{\"liftID\":21,\"time\":217,\"waitTime\":3}";
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0);
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

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10));
    }

    private static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET().build());
    }

    private static HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return send(request(path)
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(json))
                .build());
    }

    private static String ridePath(int resort, int day, int skier) {
        return "/skiers/" + resort + "/seasons/2022/days/" + day + "/skiers/" + skier;
    }

    private static JsonObject jsonObject(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), response::body);
        assertEquals(JSON, response.headers().firstValue("Content-Type").orElse(null));
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    @Test
    void storesAValidRideWith201AndAnEmptyBody() throws Exception {
        HttpResponse<String> response = post(ridePath(1, 1, 1), RIDE);
        assertEquals(201, response.statusCode());
        assertEquals("", response.body());
    }

    @Test
    void acceptsJsonWithACharsetAndARideWithoutWaitTime() throws Exception {
        HttpResponse<String> response = send(request(ridePath(1, 1, 2))
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(BodyPublishers.ofString("{\"liftID\":1,\"time\":1}"))
                .build());
        assertEquals(201, response.statusCode());
    }

    @Test
    void answersTheDayVerticalAsTheSumOfLiftIdsTimesTen() throws Exception {
        String path = ridePath(101, 5, 77);
        assertEquals(201, post(path, "{\"liftID\":21,\"time\":10}").statusCode());
        assertEquals(201, post(path, "{\"liftID\":60,\"time\":20}").statusCode());
        assertEquals(
                201, post(ridePath(101, 6, 77), "{\"liftID\":5,\"time\":20}").statusCode());
        HttpResponse<String> response = get(path);
        assertEquals(200, response.statusCode());
        assertEquals(JSON, response.headers().firstValue("Content-Type").orElse(null));
        assertEquals("810", response.body());
    }

    @Test
    void answers404ForADayWithoutRides() throws Exception {
        assertError(get(ridePath(102, 1, 5)), 404, "no rides for skier 5 at resort 102, season 2022, day 1");
    }

    @Test
    void answersSeasonTotalsOverTheRequestedResorts() throws Exception {
        assertEquals(
                201,
                post("/skiers/103/seasons/2021/days/1/skiers/9", "{\"liftID\":1,\"time\":1}")
                        .statusCode());
        assertEquals(
                201,
                post("/skiers/103/seasons/2022/days/1/skiers/9", "{\"liftID\":2,\"time\":1}")
                        .statusCode());
        assertEquals(
                201,
                post("/skiers/104/seasons/2022/days/9/skiers/9", "{\"liftID\":3,\"time\":1}")
                        .statusCode());

        JsonArray all =
                jsonObject(get("/skiers/9/vertical?resort=103&resort=104"), 200).getAsJsonArray("resorts");
        assertEquals(
                JsonParser.parseString(
                        "[{\"seasonID\":\"2021\",\"totalVert\":10},{\"seasonID\":\"2022\",\"totalVert\":50}]"),
                all);
        JsonArray one = jsonObject(get("/skiers/9/vertical?resort=103&season=2022"), 200)
                .getAsJsonArray("resorts");
        assertEquals(JsonParser.parseString("[{\"seasonID\":\"2022\",\"totalVert\":20}]"), one);
        assertError(get("/skiers/9/vertical?resort=105"), 404, "no rides for skier 9 at resort(s) [105]");
        assertError(
                get("/skiers/9/vertical?resort=103&season=2030"),
                404,
                "no rides for skier 9 at resort(s) [103] in season(s) [2030]");
        assertError(
                get("/skiers/9/vertical"),
                400,
                "resort is required (an integer in 1..2147483647; repeat it for several resorts: ?resort=1&resort=2)");
        RawHttp.Response badEncoding = RawHttp.exchange(
                server.port(), "GET /liftride/skiers/9/vertical?resort=%zz HTTP/1.1\r\nHost: t\r\n\r\n");
        assertEquals("query string must be valid percent-encoding, got \"resort=%zz\"", errorMessage(badEncoding, 400));
        assertError(get("/skiers/0/vertical?resort=1"), 400, "skierID must be an integer in 1..100000, got \"0\"");
    }

    @Test
    void listsSeededResortsAndOnesThatGotRides() throws Exception {
        assertEquals(201, post(ridePath(106, 1, 1), RIDE).statusCode());
        JsonArray resorts = jsonObject(get("/resorts"), 200).getAsJsonArray("resorts");
        assertEquals(JsonParser.parseString("{\"resortName\":\"Mission Ridge\",\"resortID\":1}"), resorts.get(0));
        assertTrue(
                resorts.contains(JsonParser.parseString("{\"resortName\":\"Resort 106\",\"resortID\":106}")),
                resorts::toString);
    }

    @Test
    void addsAndListsSeasons() throws Exception {
        HttpResponse<String> created = post("/resorts/7/seasons", "{\"year\":\"2019\"}");
        assertEquals(201, created.statusCode());
        assertEquals(201, post("/resorts/7/seasons", "{\"year\":\"2019\"}").statusCode());
        assertEquals(201, post("/resorts/7/seasons", "{\"year\":\"0999\"}").statusCode());
        assertEquals(
                JsonParser.parseString("{\"seasons\":[\"0999\",\"2019\"]}"),
                jsonObject(get("/resorts/7/seasons"), 200));
        assertError(get("/resorts/999/seasons"), 404, "resort 999 not found");
        assertError(post("/resorts/999/seasons", "{\"year\":\"2019\"}"), 404, "resort 999 not found");
        assertError(
                post("/resorts/7/seasons", "{\"year\":2019}"),
                400,
                "year must be a 4-digit year (exactly 4 ASCII digits), got 2019 (a number)");
        assertError(
                post("/resorts/x/seasons", "{\"year\":\"2019\"}"),
                400,
                "resortID must be an integer in 1..2147483647, got \"x\"");
    }

    @Test
    void countsUniqueSkiersOfADay() throws Exception {
        assertEquals(201, post(ridePath(8, 3, 1), RIDE).statusCode());
        assertEquals(201, post(ridePath(8, 3, 1), RIDE).statusCode());
        assertEquals(201, post(ridePath(8, 3, 2), RIDE).statusCode());
        assertEquals(
                JsonParser.parseString("{\"time\":\"Mt. Spokane\",\"numSkiers\":2}"),
                jsonObject(get("/resorts/8/seasons/2022/day/3/skiers"), 200));
        assertEquals(
                JsonParser.parseString("{\"time\":\"Mt. Spokane\",\"numSkiers\":0}"),
                jsonObject(get("/resorts/8/seasons/2022/day/4/skiers"), 200));
        assertError(get("/resorts/8/seasons/2031/day/3/skiers"), 404, "season 2031 not found at resort 8");
        assertError(get("/resorts/998/seasons/2022/day/3/skiers"), 404, "resort 998 not found");
        assertError(
                get("/resorts/8/seasons/0999/day/3/skiers"),
                400,
                "seasonID must be a 4-digit year in 1000..9999, got \"0999\"");
    }

    @Test
    void rejectsInvalidPathParametersWith400NamingThem() throws Exception {
        assertError(
                post("/skiers/0/seasons/2022/days/1/skiers/1", RIDE),
                400,
                "resortID must be an integer in 1..2147483647, got \"0\"");
        assertError(
                post("/skiers/1/seasons/22/days/1/skiers/1", RIDE),
                400,
                "seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"22\"");
        assertError(
                post("/skiers/1/seasons/2022/days/367/skiers/1", RIDE),
                400,
                "dayID must be an integer in 1..366 of at most 3 digits, got \"367\"");
        assertError(
                post("/skiers/1/seasons/2022/days/1/skiers/100001", RIDE),
                400,
                "skierID must be an integer in 1..100000, got \"100001\"");
        assertError(
                post("/skiers/99999999999/seasons/2022/days/1/skiers/1", RIDE),
                400,
                "resortID must be an integer in 1..2147483647, got \"99999999999\"");
        assertError(
                get("/skiers/1/seasons/2022/days/1/skiers/"), 400, "skierID must be an integer in 1..100000, got \"\"");
        assertError(
                get("/skiers/%E2%9B%B7/seasons/2022/days/1/skiers/1"),
                400,
                "resortID must be an integer in 1..2147483647, got \"⛷\"");
    }

    @Test
    void rejectsInvalidBodiesWith400NamingTheField() throws Exception {
        String path = ridePath(1, 1, 3);
        assertError(post(path, "{\"liftID\":61,\"time\":1}"), 400, "liftID must be an integer in 1..60, got 61");
        assertError(
                post(path, "{\"liftID\":\"12\",\"time\":1}"),
                400,
                "liftID must be an integer in 1..60, got \"12\" (a string)");
        assertError(post(path, "{\"liftID\":12.5,\"time\":1}"), 400, "liftID must be an integer in 1..60, got 12.5");
        assertError(
                post(path, "{\"liftID\":1,\"time\":true}"),
                400,
                "time must be an integer in 1..420, got true (a boolean)");
        assertError(
                post(path, "{\"liftID\":1,\"time\":1,\"waitTime\":null}"),
                400,
                "waitTime must be an integer in 0..10, got null");
        assertError(post(path, "{\"liftID\":1}"), 400, "time is required (an integer in 1..420)");
        assertError(post(path, "[1]"), 400, "body must be a JSON object, got an array");
        assertError(
                post(path, ""),
                400,
                "body is required: a JSON object such as {\"liftID\": 21, \"time\": 217, \"waitTime\": 3}");
        assertError(
                post(path, "{liftID:1,time:1}"),
                400,
                "body must be valid JSON: malformed JSON at line 1 column 3 path $.");
        assertError(post(path, RIDE + "x"), 400, "body must be one JSON object with nothing after it");
        assertError(
                post(path, "{\"liftID\":1,\"time\":1,\"liftID\":2}"),
                400,
                "body must not repeat a field, got \"liftID\" twice");
        HttpResponse<String> latin1 = send(request(path)
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofByteArray(
                        "{\"liftID\":1,\"time\":1,\"n\":\"\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1)))
                .build());
        assertError(latin1, 400, "body must be UTF-8 encoded JSON");
    }

    @Test
    void rejectsNonJsonContentTypesWith415() throws Exception {
        String path = ridePath(1, 1, 4);
        assertError(
                send(request(path)
                        .header("Content-Type", "text/plain")
                        .POST(BodyPublishers.ofString(RIDE))
                        .build()),
                415,
                "Content-Type must be application/json, got \"text/plain\"");
        assertError(
                send(request(path).POST(BodyPublishers.ofString(RIDE)).build()),
                415,
                "Content-Type must be application/json, got none");
        assertError(
                send(request(path)
                        .header("Content-Type", "application/json; charset=ISO-8859-1")
                        .POST(BodyPublishers.ofString(RIDE))
                        .build()),
                415,
                "Content-Type charset must be UTF-8, got \"ISO-8859-1\"");
        assertError(
                send(request("/resorts/1/seasons")
                        .header("Content-Type", "application/xml")
                        .POST(BodyPublishers.ofString("<year/>"))
                        .build()),
                415,
                "Content-Type must be application/json, got \"application/xml\"");
    }

    @Test
    void rejectsBodiesOverTheLimitWith413WithContentLengthAndChunked() throws Exception {
        String big = "{\"liftID\":1,\"time\":1,\"pad\":\"" + "x".repeat(5000) + "\"}";
        assertError(
                post(ridePath(1, 1, 5), big),
                413,
                "body must be at most 4096 bytes, Content-Length is " + big.length());
        HttpResponse<String> chunked = send(request(ridePath(1, 1, 5))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                .build());
        assertError(chunked, 413, "body must be at most 4096 bytes, the chunked body is longer");
    }

    @Test
    void acceptsASmallChunkedBody() throws Exception {
        HttpResponse<String> chunked = send(request(ridePath(1, 1, 6))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(RIDE.getBytes(StandardCharsets.UTF_8))))
                .build());
        assertEquals(201, chunked.statusCode());
    }

    @Test
    void acceptsABodyOfExactlyTheLimit() throws Exception {
        String prefix = "{\"liftID\":1,\"time\":1,\"pad\":\"";
        String exact = prefix + "x".repeat(4096 - prefix.length() - 2) + "\"}";
        assertEquals(4096, exact.length());
        assertEquals(201, post(ridePath(1, 1, 7), exact).statusCode());
    }

    @Test
    void rejectsOtherMethodsWith405AndAnAllowHeader() throws Exception {
        String path = ridePath(1, 1, 1);
        for (String method : new String[] {"PUT", "DELETE", "PATCH", "OPTIONS", "FOO"}) {
            HttpResponse<String> response =
                    send(request(path).method(method, BodyPublishers.noBody()).build());
            assertError(
                    response,
                    405,
                    "method " + method
                            + " is not allowed on /skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}; allowed: GET, POST");
            assertEquals("GET, POST", response.headers().firstValue("Allow").orElse(null));
        }
        HttpResponse<String> resorts = post("/resorts", "{}");
        assertError(resorts, 405, "method POST is not allowed on /resorts; allowed: GET");
        assertEquals("GET", resorts.headers().firstValue("Allow").orElse(null));
        assertEquals(
                "GET", post("/statistics", "{}").headers().firstValue("Allow").orElse(null));
        assertEquals(
                "GET",
                post("/skiers/1/vertical", "{}").headers().firstValue("Allow").orElse(null));
        assertEquals(
                "GET",
                post("/resorts/1/seasons/2022/day/1/skiers", "{}")
                        .headers()
                        .firstValue("Allow")
                        .orElse(null));
        HttpResponse<String> head =
                send(request("/resorts").method("HEAD", BodyPublishers.noBody()).build());
        assertEquals(405, head.statusCode());
        assertEquals("GET", head.headers().firstValue("Allow").orElse(null));
    }

    @Test
    void answersUnknownRoutesWith404Json() throws Exception {
        String message = errorMessage(get("/nope"), 404);
        assertTrue(message.startsWith("no route for GET \"/nope\"; routes are /skiers/"), message);
        errorMessage(get("/"), 404);
        errorMessage(get("/resorts/"), 404);
        errorMessage(get("/statistics/x"), 404);
        errorMessage(get("/skiers/1/seasons/2022/days/1/skiers/1/x"), 404);
        errorMessage(get("/WEB-INF/web.xml"), 404);
        errorMessage(get("/error"), 404);
        errorMessage(post("/nope", RIDE), 404);
        errorMessage(
                send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/elsewhere"))
                        .build()),
                404);
    }

    @Test
    void reportsStatisticsPerEndpointAndTheStoredRideCount() throws Exception {
        assertEquals(201, post(ridePath(120, 1, 1), RIDE).statusCode());
        get(ridePath(120, 1, 1));
        JsonObject stats = jsonObject(get("/statistics"), 200);
        assertTrue(stats.get("ridesStored").getAsLong() >= 1);
        boolean sawPost = false;
        for (var element : stats.getAsJsonArray("endpointStats")) {
            JsonObject endpoint = element.getAsJsonObject();
            for (String field : new String[] {"URL", "operation", "mean", "max", "meanMicros", "maxMicros", "count"}) {
                assertTrue(endpoint.has(field), () -> field + " missing in " + endpoint);
            }
            assertTrue(endpoint.get("count").getAsLong() > 0);
            assertTrue(endpoint.get("maxMicros").getAsLong()
                    >= endpoint.get("meanMicros").getAsLong());
            if (endpoint.get("URL")
                            .getAsString()
                            .equals("/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}")
                    && endpoint.get("operation").getAsString().equals("POST")) {
                sawPost = true;
            }
        }
        assertTrue(sawPost, stats::toString);
    }
}
