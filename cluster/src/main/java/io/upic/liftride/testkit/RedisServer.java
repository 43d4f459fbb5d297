package io.upic.liftride.testkit;

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
 * A real redis-server on 127.0.0.1 with the project's recommended servlet/redis/redis.conf (AOF, everysec)
 * and its data in a directory of its own, so it can be SIGKILLed and restarted from its AOF. The one way
 * the local cluster and the tests start Redis; installs Debian's redis-server when missing. It dies with
 * the JVM (see {@link Spawner}). Not thread-safe; {@link #close()} stops it and deletes its directory.
 */
public final class RedisServer implements AutoCloseable {
    /** A Redis that loads a large AOF may take a while before it answers PING. */
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    /** On SIGTERM Redis writes its AOF out and exits; it is SIGKILLed after this. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private final Path dir;
    private final HostPort address;
    private final Spawner spawner = new Spawner();
    private final ChildProcess process;

    private RedisServer(Path dir, int port, List<String> extraArgs) {
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

    /** Starts a server on a free port with the recommended configuration, in a new temp directory. */
    public static RedisServer start() {
        return start(FreePorts.next(), List.of());
    }

    /** Starts a server on {@code port}, with extra {@code --name value} arguments after the config file. */
    public static RedisServer start(int port, List<String> extraArgs) {
        return start(Trees.temp("liftride-redis-"), port, extraArgs);
    }

    /** Starts a server on {@code port} with its data, configuration and log in {@code dir} (created if needed). */
    public static RedisServer start(Path dir, int port, List<String> extraArgs) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        RedisServer server = new RedisServer(dir, port, extraArgs);
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
        try (InputStream recommended = RedisServer.class.getResourceAsStream("redis.conf")) {
            if (recommended == null) {
                throw new IllegalStateException("redis.conf must be on the class path next to "
                        + RedisServer.class.getName() + " (the build copies servlet/redis/redis.conf there)");
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

    public int port() {
        return address.port();
    }

    public HostPort address() {
        return address;
    }

    /** {@code redis://127.0.0.1:PORT}, as {@code --store} takes it. */
    public String url() {
        return "redis://" + address;
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

    /** SIGSTOP: Redis stays connected but answers nothing until {@link #resume()}. */
    public void freeze() {
        Programs.signal(process.pid(), "STOP");
    }

    public void resume() {
        Programs.signal(process.pid(), "CONT");
    }

    /** Runs redis-cli against this server; the reply as text. */
    public String cli(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Programs.require("redis-cli", "redis-tools"), "-h", address.host(), "-p", Integer.toString(port())));
        command.addAll(List.of(args));
        Programs.Result result = Programs.exec(Duration.ofSeconds(10), command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("redis-cli " + String.join(" ", args) + " failed: " + result.output());
        }
        return result.output().strip();
    }

    /** The end of what the server logged, for failure messages. */
    public String log() {
        return process.logTail();
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
