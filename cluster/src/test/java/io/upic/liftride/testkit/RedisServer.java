package io.upic.liftride.testkit;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.HostPort;
import io.upic.liftride.cluster.Programs;
import io.upic.liftride.cluster.Redis;
import io.upic.liftride.cluster.Trees;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Redis} for tests, in a temp directory of its own, with what only tests do to it: {@code redis-cli},
 * freeze and resume. Not thread-safe; {@link #close()} stops it and deletes its directory.
 */
public final class RedisServer implements AutoCloseable {
    private final Redis redis;

    private RedisServer(Redis redis) {
        this.redis = redis;
    }

    /** Starts a server on a free port with the recommended configuration. */
    public static RedisServer start() {
        return start(FreePorts.next(), List.of());
    }

    /** Starts a server on {@code port}, with extra {@code --name value} arguments after the config file. */
    public static RedisServer start(int port, List<String> extraArgs) {
        return new RedisServer(Redis.start(Trees.temp("liftride-redis-"), port, extraArgs));
    }

    public int port() {
        return redis.address().port();
    }

    public HostPort address() {
        return redis.address();
    }

    /** {@code redis://127.0.0.1:PORT}, as {@code --store} takes it. */
    public String url() {
        return "redis://" + redis.address();
    }

    public void kill() {
        redis.kill();
    }

    public void restart() {
        redis.restart();
    }

    /** SIGSTOP: Redis stays connected but answers nothing until {@link #resume()}. */
    public void freeze() {
        Shell.signal(redis.pid(), "STOP");
    }

    public void resume() {
        Shell.signal(redis.pid(), "CONT");
    }

    /** Runs redis-cli against this server; the reply as text. */
    public String cli(String... args) {
        return cli(redis.address(), args);
    }

    /** Runs redis-cli against the Redis at {@code address}; the reply as text. */
    public static String cli(HostPort address, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Programs.require("redis-cli", "redis-tools"),
                "-h",
                address.host(),
                "-p",
                Integer.toString(address.port())));
        command.addAll(List.of(args));
        Programs.Result result = Programs.exec(Duration.ofSeconds(10), command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("redis-cli " + String.join(" ", args) + " failed: " + result.output());
        }
        return result.output().strip();
    }

    @Override
    public void close() {
        redis.close();
    }
}
