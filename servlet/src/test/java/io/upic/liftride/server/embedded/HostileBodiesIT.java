package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A sample of hostile paths and bodies through real HTTP: the answer is always 201 for a valid ride
 * or a 4XX with a JSON {"message"}; never a 5XX, never HTML. (The exhaustive runs are the unit-level
 * properties; this checks that nothing between Tomcat and the validator changes the outcome.)
 */
class HostileBodiesIT {
    private static EmbeddedServer server;
    private static HttpClient client;

    @BeforeContainer
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0);
        client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterContainer
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void assertRideOr4xxJson(HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 201) {
            return;
        }
        assertTrue(status >= 400 && status < 500, () -> "status " + status + ": " + response.body());
        JsonAssertions.errorMessage(
                response.headers().firstValue("Content-Type").orElse(null), response.body());
    }

    @Property(tries = 300)
    void answersHostileBodiesWith201OrA4xxJsonMessage(
            @ForAll("bodies") String body, @ForAll("contentTypes") String contentType)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(server.baseUrl() + "/skiers/1/seasons/2022/days/1/skiers/1"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.getBytes(StandardCharsets.UTF_8)))
                .build();
        assertRideOr4xxJson(client.send(request, HttpResponse.BodyHandlers.ofString()));
    }

    @Property(tries = 300)
    void answersHostilePathsWith201OrA4xxJsonMessage(@ForAll("paths") String path)
            throws IOException, InterruptedException {
        URI uri;
        try {
            uri = URI.create(server.baseUrl() + path);
        } catch (IllegalArgumentException notAUri) {
            return; // the client cannot even send it; HostileHttpIT covers raw malformed request lines
        }
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":1,\"time\":1}"))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 405) {
            assertRideOr4xxJson(response);
        } else {
            assertEquals(405, response.statusCode());
            JsonAssertions.errorMessage(
                    response.headers().firstValue("Content-Type").orElse(null), response.body());
        }
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.oneOf(
                Arbitraries.strings()
                        .withChars("{}[]\":,0123456789.-eE truefalsnl\\'")
                        .ofMaxLength(60),
                Arbitraries.strings().all().ofMaxLength(50),
                Arbitraries.integers().between(-5, 70).map(l -> "{\"liftID\":" + l + ",\"time\":" + (l * 7) + "}"),
                Arbitraries.integers()
                        .between(1, 6000)
                        .map(n -> "{\"liftID\":1,\"time\":1,\"pad\":\"" + "x".repeat(n) + "\"}"),
                Arbitraries.integers().between(1, 3000).map("["::repeat),
                Arbitraries.of(
                        "",
                        "null",
                        "{}",
                        "{\"liftID\":1,\"time\":1}{}",
                        "{\"liftID\":1,\"liftID\":1,\"time\":1}",
                        "{\"liftID\":\"1\",\"time\":1}",
                        "{\"liftID\":1.5,\"time\":1}",
                        "{liftID:1,time:1}"));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of(
                "application/json",
                "application/json; charset=utf-8",
                "text/plain",
                "application/json; charset=latin1",
                "*/*");
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> segment = Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789-+.eE%").ofMaxLength(12),
                Arbitraries.strings().alpha().ofMaxLength(6),
                Arbitraries.of(
                        "2022",
                        "1",
                        "0",
                        "366",
                        "100000",
                        "2147483648",
                        "%31",
                        "%zz",
                        "%00",
                        "%C3%28",
                        "%2F",
                        "..",
                        ".",
                        ""));
        Arbitrary<String> literal =
                Arbitraries.of("skiers", "seasons", "days", "day", "resorts", "vertical", "statistics");
        return Arbitraries.oneOf(segment, literal).list().ofMaxSize(10).map(parts -> "/" + String.join("/", parts));
    }
}
