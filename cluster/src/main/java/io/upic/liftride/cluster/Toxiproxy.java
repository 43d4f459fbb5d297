package io.upic.liftride.cluster;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Toxiproxy on 127.0.0.1, driven over its HTTP API: proxies on free loopback ports and a latency toxic
 * per direction, to play a wide-area network. Installs the pinned {@link #VERSION} with {@code go install} when
 * missing; dies with the JVM. Thread-safe; {@link #close()} stops it, and so every proxy.
 */
public final class Toxiproxy implements AutoCloseable {
    /** The release installed when missing (March 2025, the newest). */
    public static final String VERSION = "v2.12.0";

    private static final String PACKAGE = "github.com/Shopify/toxiproxy/v2/cmd/server";
    private static final String HOST = "127.0.0.1";
    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Path dir;
    private final HostPort api;
    private final Spawner spawner = new Spawner();
    private final ChildProcess process;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Toxiproxy(Path dir, int apiPort) {
        this.dir = dir;
        this.api = new HostPort(HOST, apiPort);
        Path server = Programs.requireGo("toxiproxy", PACKAGE, VERSION);
        // warn: at its default level it logs every connection, which a load test makes by the thousand
        List<String> command =
                List.of("env", "LOG_LEVEL=warn", server.toString(), "-host", HOST, "-port", Integer.toString(apiPort));
        this.process = new ChildProcess("toxiproxy", command, dir.resolve("toxiproxy.log"), spawner);
    }

    /** Starts it with its API on a free loopback port; returns once the API answers. */
    public static Toxiproxy start() {
        Toxiproxy toxiproxy = new Toxiproxy(Trees.temp("liftride-toxiproxy-"), FreePorts.next());
        try {
            toxiproxy.process.start();
            toxiproxy.process.await(START_LIMIT, () -> toxiproxy.answers());
            return toxiproxy;
        } catch (RuntimeException e) {
            toxiproxy.close();
            throw e;
        }
    }

    private boolean answers() {
        try {
            return send("GET", "/version", null).statusCode() == 200;
        } catch (IllegalStateException notYet) {
            return false;
        }
    }

    /** Where its HTTP API listens. */
    public HostPort api() {
        return api;
    }

    public long pid() {
        return process.pid();
    }

    /** Creates proxy {@code name} on a free loopback port to {@code upstream}; returns the address to connect to. */
    public HostPort proxy(String name, HostPort upstream) {
        return proxy(name, upstream, 0);
    }

    /** {@link #proxy(String, HostPort)} listening on {@code port} of 127.0.0.1 (0: a free one). */
    public HostPort proxy(String name, HostPort upstream, int port) {
        HostPort listen = new HostPort(HOST, port == 0 ? FreePorts.next() : port);
        String body = "{\"name\":\"" + name + "\",\"listen\":\"" + listen + "\",\"upstream\":\"" + upstream
                + "\",\"enabled\":true}";
        expect(201, "POST", "/proxies", body);
        return listen;
    }

    /**
     * Adds a latency toxic per direction to proxy {@code name}, half of {@code roundTrip} and of {@code jitter}
     * each way, in whole milliseconds.
     *
     * @throws IllegalArgumentException if the round trip is under 1 ms or the jitter negative or larger
     */
    public void latency(String name, Duration roundTrip, Duration jitter) {
        long rttMillis = roundTrip.toMillis();
        long jitterMillis = jitter.toMillis();
        if (rttMillis < 1 || jitterMillis < 0 || jitterMillis > rttMillis) {
            throw new IllegalArgumentException("latency needs a round trip >= 1 ms and a jitter in 0..round trip, got "
                    + rttMillis + " ms and " + jitterMillis + " ms");
        }
        long up = rttMillis / 2;
        toxic(name, "upstream", up, jitterMillis / 2);
        toxic(name, "downstream", rttMillis - up, jitterMillis - jitterMillis / 2);
    }

    private void toxic(String proxy, String stream, long latencyMillis, long jitterMillis) {
        String body = "{\"name\":\"latency_" + stream + "\",\"type\":\"latency\",\"stream\":\"" + stream
                + "\",\"toxicity\":1.0,\"attributes\":{\"latency\":" + latencyMillis + ",\"jitter\":" + jitterMillis
                + "}}";
        expect(200, "POST", "/proxies/" + proxy + "/toxics", body);
    }

    private String expect(int status, String method, String path, String body) {
        HttpResponse<String> response = send(method, path, body);
        if (response.statusCode() != status) {
            throw new IllegalStateException("toxiproxy " + method + " " + path + " answered " + response.statusCode()
                    + ", not " + status + ": " + response.body());
        }
        return response.body();
    }

    private HttpResponse<String> send(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + api + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IllegalStateException("toxiproxy's API at " + api + " refused the connection", e);
        } catch (IOException e) {
            throw new IllegalStateException("toxiproxy " + method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling toxiproxy", e);
        }
    }

    /** SIGTERM (its proxies close with it), then deletes its directory. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
        spawner.close();
        Trees.delete(dir);
    }
}
