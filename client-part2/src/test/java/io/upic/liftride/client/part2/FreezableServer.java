package io.upic.liftride.client.part2;

import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.testkit.Shell;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code liftride-server.jar} in a process of its own on a free loopback port, so that a test can freeze it
 * (SIGSTOP) without freezing the client. Closing it kills the process. Not thread-safe: one test's.
 */
final class FreezableServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");

    private final Process process;
    private final String baseUrl;

    private FreezableServer(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /** Starts the server jar and waits until it listens. */
    static FreezableServer start() throws IOException {
        String jar = System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java, "-Xmx256m", "-jar", jar, "--port", "0", "--host", "127.0.0.1", "--management-port", "0")
                .redirectErrorStream(true)
                .start();
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = lines.readLine()) != null; ) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                // keep draining its output so a full pipe never blocks the server
                CompletableFuture.runAsync(() -> lines.lines().forEach(l -> {}));
                return new FreezableServer(process, m.group(1));
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("the server did not start: " + seen);
    }

    /** The base URL, {@code http://127.0.0.1:PORT/liftride}. */
    String baseUrl() {
        return baseUrl;
    }

    /** Rides the server has stored; 0 while it does not answer. */
    long stored() {
        return ServerProbe.statistics(baseUrl, 1_000, 2_000).ridesStored().orElse(0);
    }

    /** Stops the process for {@code duration}, then lets it go on. */
    void freezeFor(Duration duration) throws InterruptedException {
        Shell.signal(process.pid(), "STOP");
        try {
            Thread.sleep(duration.toMillis()); // time itself: the freeze's length is the scenario
        } finally {
            Shell.signal(process.pid(), "CONT");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
