package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The generated nginx configuration, run by the real nginx in front of {@link FakeUpstream}s: what it
 * re-sends to the next server and what it never re-sends, and its own errors as JSON.
 */
@Timeout(60)
class NginxFrontIT {
    private static final String RIDE = "/liftride/skiers/1/seasons/2022/days/1/skiers/7";
    private static final String BODY = "{\"liftID\":5,\"time\":10}";

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final Spawner spawner = new Spawner();
    private String front;

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        spawner.close();
    }

    @Test
    void neverResendsAPostThatReachedAServerThatDied() throws Exception {
        FakeUpstream first = closing(FakeUpstream.dyingOnEveryRequest());
        FakeUpstream second = closing(FakeUpstream.dyingOnEveryRequest());
        startNginx(first.port(), second.port());

        HttpResponse<String> post = send(HttpRequest.newBuilder(URI.create(front + RIDE))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BODY)));
        assertJsonError(502, post);
        assertTrue(post.body().contains("Idempotency-Key"), post.body());
        List<String> posts = new ArrayList<>(first.received());
        posts.addAll(second.received());
        assertEquals(List.of("POST " + RIDE + " HTTP/1.1"), posts, "the POST reached one server, once");
    }

    @Test
    void resendsAGetToTheNextServerWhenAServerDiesWithIt() throws Exception {
        FakeUpstream first = closing(FakeUpstream.dyingOnEveryRequest());
        FakeUpstream second = closing(FakeUpstream.dyingOnEveryRequest());
        startNginx(first.port(), second.port());

        HttpResponse<String> get = send(HttpRequest.newBuilder(URI.create(front + RIDE)));
        assertJsonError(502, get);
        assertEquals(List.of("GET " + RIDE + " HTTP/1.1"), first.received());
        assertEquals(List.of("GET " + RIDE + " HTTP/1.1"), second.received());
    }

    @Test
    void sendsAPostThatNoServerReceivedToTheNextServer() throws Exception {
        int refusing = FreePorts.next(); // nothing listens there: the connection is refused before any byte is sent
        FakeUpstream live = closing(FakeUpstream.answering201());
        startNginx(refusing, live.port());
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> post = send(HttpRequest.newBuilder(URI.create(front + RIDE))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(BODY)));
            assertEquals(201, post.statusCode(), post.body());
        }
        assertEquals(4, live.received().size(), live.received().toString());
    }

    @Test
    void answersItsOwnErrorsAsJson() throws Exception {
        FakeUpstream live = closing(FakeUpstream.answering201());
        startNginx(live.port());
        assertJsonError(
                400, send(HttpRequest.newBuilder(URI.create(front + RIDE)).header("X-Big", "a".repeat(9000))));
        assertJsonError(
                413,
                send(HttpRequest.newBuilder(URI.create(front + RIDE))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("x".repeat(100_000)))));
        assertJsonError(404, send(HttpRequest.newBuilder(URI.create(front + "/liftride-lb-error/502"))));
        assertEquals(List.of(), live.received(), "nginx answered these itself");
    }

    @Test
    void aBodyThatTricklesInReachesTheServerOnlyWhenWhole() throws Exception {
        FakeUpstream live = closing(FakeUpstream.answering201());
        startNginx(live.port());
        try (Socket client = new Socket("127.0.0.1", URI.create(front).getPort())) {
            client.setSoTimeout(20_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST " + RIDE + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + BODY.length() + "\r\n\r\n" + BODY.substring(0, 10))
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(1_000);
            assertEquals(List.of(), live.received(), "nginx holds a partial body: no server sees the request yet");
            out.write(BODY.substring(10).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new String(client.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 201", status);
        }
        assertEquals(List.of("POST " + RIDE + " HTTP/1.1"), live.received());
    }

    private FakeUpstream closing(FakeUpstream upstream) {
        toClose.add(upstream);
        return upstream;
    }

    private void startNginx(Integer... serverPorts) throws IOException, InterruptedException {
        int port = FreePorts.next();
        Path dir = Files.createTempDirectory("liftride-nginx-it-");
        ChildProcess nginx = new NginxConf(port, List.of(serverPorts), dir).writeAndPrepare(spawner);
        nginx.start();
        toClose.add(() -> nginx.stop(Duration.ofSeconds(10)));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!listening(port)) {
            nginx.requireAlive();
            assertTrue(System.nanoTime() < deadline, "nginx did not listen within 20 s:\n" + nginx.logTail());
            Thread.sleep(50);
        }
        front = "http://127.0.0.1:" + port;
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertJsonError(int status, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(
                response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                response.headers().toString());
        String message = JsonParser.parseString(response.body())
                .getAsJsonObject()
                .get("message")
                .getAsString();
        assertTrue(!message.isBlank(), response.body());
    }
}
