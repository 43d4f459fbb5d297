package io.upic.liftride.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A redis-server on 127.0.0.1 with the recommended servlet/redis/redis.conf (AOF) and its data in a directory
 * of its own, so it can be SIGKILLed and restarted from its AOF; it dies with the JVM (see {@link Spawner}).
 * Not thread-safe; {@link #close()} stops it and deletes its directory.
 */
public final class Redis implements AutoCloseable {
    /** A Redis that loads a large AOF may take a while before it answers PING. */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    /** On SIGTERM Redis writes its AOF out and exits; it is SIGKILLed after this. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private final Path dir;
    private final HostPort address;
    private final Spawner spawner = new Spawner();
    private final ChildProcess process;

    private Redis(Path dir, int port, List<String> extraArgs) {
        this.dir = dir;
        this.address = new HostPort("127.0.0.1", port);
        List<String> command = new ArrayList<>(List.of(
                Programs.require("redis-server", "redis-server"),
                recommendedConfig(dir).toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                address.host(),
                "--dir",
                dir.toString(),
                "--daemonize",
                "no",
                "--logfile",
                dir.resolve("redis.log").toString()));
        command.addAll(extraArgs);
        this.process = new ChildProcess("redis", command, dir.resolve("redis.log"), spawner);
    }

    /** Starts a server on {@code port} with its data, configuration and log in {@code dir} (created if needed). */
    public static Redis start(Path dir, int port, List<String> extraArgs) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        Redis server = new Redis(dir, port, extraArgs);
        try {
            server.launch();
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The recommended redis.conf (on the class path next to this class), copied into {@code dir}. */
    private static Path recommendedConfig(Path dir) {
        Path conf = dir.resolve("redis.conf");
        try (InputStream recommended = Redis.class.getResourceAsStream("redis.conf")) {
            if (recommended == null) {
                throw new IllegalStateException("redis.conf must be on the class path next to " + Redis.class.getName()
                        + " (the build copies servlet/redis/redis.conf there)");
            }
            Files.copy(recommended, conf, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return conf;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf, e);
        }
    }

    private void launch() {
        process.start();
        process.await(START_LIMIT, () -> answersPing(address));
    }

    /** Returns once the Redis at {@code address} answers PING; else "Redis at HOST:PORT did not answer within N s". */
    public static void awaitPing(HostPort address, Duration limit) {
        Poll.until("Redis at " + address, limit, () -> answersPing(address));
    }

    /** Whether Redis answers PING with PONG (while it loads its AOF it answers -LOADING). */
    private static boolean answersPing(HostPort address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), 1_000);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = socket.getInputStream().readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }

    public HostPort address() {
        return address;
    }

    public long pid() {
        return process.pid();
    }

    /** The directory of its data, configuration and log. */
    public Path dir() {
        return dir;
    }

    /** SIGKILL: Redis gets no chance to flush or save anything more. */
    public void kill() {
        process.kill();
    }

    /** Starts it again on the same port and directory (SIGKILLing it first if it runs): it loads its AOF. */
    public void restart() {
        process.kill();
        launch();
    }

    /** SIGTERM (Redis writes its AOF out; a frozen one is resumed first), then deletes its directory. */
    @Override
    public void close() {
        if (process.isAlive()) {
            Programs.exec(Duration.ofSeconds(5), "kill", "-CONT", Long.toString(process.pid()));
        }
        process.stop(STOP_GRACE);
        spawner.close();
        Trees.delete(dir);
    }
}
