package io.upic.liftride.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real redis-server on 127.0.0.1 for tests, with the project's recommended servlet/redis/redis.conf
 * (AOF, everysec) and its data in a directory of its own, so it can be SIGKILLed and restarted from
 * its AOF. Installs Debian's redis-server when missing. Not thread-safe; {@link #close()} stops it.
 */
public final class RedisServer implements AutoCloseable {
    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private Process process;

    private RedisServer(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Starts a server on a free port with the recommended configuration. */
    public static RedisServer start() {
        return start(FreePorts.next(), List.of());
    }

    /** Starts a server on {@code port}, with extra {@code --name value} arguments after the config file. */
    public static RedisServer start(int port, List<String> extraArgs) {
        try {
            RedisServer server = new RedisServer(Files.createTempDirectory("liftride-redis-"), port, extraArgs);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The recommended configuration shipped with the project, found from the module or the repo root. */
    public static Path recommendedConfig() {
        for (Path candidate : List.of(
                Path.of("redis/redis.conf"),
                Path.of("servlet/redis/redis.conf"),
                Path.of("../servlet/redis/redis.conf"))) {
            if (Files.isRegularFile(candidate)) {
                return candidate.toAbsolutePath();
            }
        }
        throw new IllegalStateException(
                "servlet/redis/redis.conf not found from " + Path.of("").toAbsolutePath());
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(
                Programs.require("redis-server", "redis-server"),
                recommendedConfig().toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                dir.toString(),
                "--daemonize",
                "no",
                "--logfile",
                dir.resolve("redis.log").toString()));
        command.addAll(extraArgs);
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stdout.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitPing(Duration.ofSeconds(30));
    }

    private void awaitPing(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": " + log());
            }
            Programs.Result ping = cli(Duration.ofSeconds(2), "PING");
            if (ping.exitCode() == 0 && ping.output().strip().equals("PONG")) {
                return;
            }
            sleep(50);
        }
        throw new IllegalStateException("redis-server did not answer PING within " + timeout + ": " + log());
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT}, as {@code --store} takes it. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: Redis gets no chance to flush or save anything more. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts it again on the same port and directory: it loads its AOF. */
    public void restart() {
        if (process.isAlive()) {
            kill();
        }
        launch();
    }

    /** SIGSTOP: Redis stays connected but answers nothing until {@link #resume()}. */
    public void freeze() {
        Programs.signal(process.pid(), "STOP");
    }

    public void resume() {
        Programs.signal(process.pid(), "CONT");
    }

    /** Runs redis-cli against this server; the reply as text. */
    public String cli(String... args) {
        Programs.Result result = cli(Duration.ofSeconds(10), args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("redis-cli " + String.join(" ", args) + " failed: " + result.output());
        }
        return result.output().strip();
    }

    private Programs.Result cli(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(
                List.of(Programs.require("redis-cli", "redis-tools"), "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        return Programs.exec(timeout, command);
    }

    /** What the server logged, for failure messages. */
    public String log() {
        try {
            Path log = dir.resolve("redis.log");
            return Files.isRegularFile(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process != null) {
            if (process.isAlive()) {
                resumeQuietly();
            }
            kill();
        }
        deleteTree(dir);
    }

    private void resumeQuietly() {
        Programs.exec(Duration.ofSeconds(5), "kill", "-CONT", Long.toString(process.pid()));
    }

    static void deleteTree(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
