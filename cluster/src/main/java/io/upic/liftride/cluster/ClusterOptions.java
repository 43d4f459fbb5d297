package io.upic.liftride.cluster;

import static io.upic.liftride.flags.Flag.Parser.ownMessage;

import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.Flags;
import io.upic.liftride.flags.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import lombok.With;
import org.apache.commons.cli.CommandLine;

/**
 * What the local cluster runs, from {@link #DEFAULTS} with the {@code with...} methods or {@link #parse} over
 * {@link #FLAGS}. Immutable.
 *
 * @param servers LiftRide servers behind nginx, 1..{@value #MAX_SERVERS}
 * @param redis an existing Redis to use, or null to start redis-server with servlet/redis/redis.conf
 * @param port the port of nginx, the front, on 127.0.0.1 (0 picks a free one)
 * @param serverCpus each server's CPU cap, or null for none
 * @param wan the network between the client and the front, or null for plain loopback
 */
@With
public record ClusterOptions(
        int servers, HostPort redis, int port, Path serverJar, CpuQuota serverCpus, WanLink wan, boolean help) {
    public static final int MAX_SERVERS = 32;
    public static final int DEFAULT_SERVERS = 2;
    public static final int DEFAULT_PORT = 8080;
    /** Where the build puts the server jar, from the repository's root. */
    public static final Path DEFAULT_SERVER_JAR = Path.of("servlet", "target", "liftride-server.jar");

    public static final ClusterOptions DEFAULTS =
            new ClusterOptions(DEFAULT_SERVERS, null, DEFAULT_PORT, DEFAULT_SERVER_JAR, null, null, false);

    static final Flag<Integer> SERVERS =
            Flag.integer(null, "servers", "N", "LiftRide servers behind nginx", 1, MAX_SERVERS, DEFAULT_SERVERS);
    static final Flag<HostPort> REDIS = Flag.of(
            null,
            "redis",
            "HOST:PORT",
            null,
            null,
            "use this Redis (7.0 or newer) instead of starting redis-server with servlet/redis/redis.conf",
            ownMessage("--redis ", HostPort::parse));
    static final Flag<Integer> PORT = Flag.integer(
            null,
            "port",
            "N",
            "port of the front (nginx, or Toxiproxy with --wan-rtt) on 127.0.0.1; 0 picks a free port",
            0,
            65535,
            DEFAULT_PORT);
    static final Flag<Path> SERVER_JAR = Flag.of(
            null,
            "server-jar",
            "PATH",
            "a file path",
            DEFAULT_SERVER_JAR,
            "the liftride-server.jar every server runs (default " + DEFAULT_SERVER_JAR + ")",
            Path::of);
    static final Flag<Double> SERVER_CPUS = Flag.of(
            null,
            "server-cpus",
            "CPUS",
            "a number of CPUs like 0.25",
            null,
            "cap each server at this much CPU, e.g. 0.25, like a small instance: a cgroup per server"
                    + " (v2 cpu.max or v1 cfs quota; needs root); client, nginx and Redis stay uncapped",
            Double::parseDouble);
    static final Flag<Integer> SERVER_CPU_PERIOD = Flag.integer(
            null,
            "server-cpu-period-ms",
            "MS",
            "the quota period of --server-cpus (the kernel's 100 stalls a 0.25-CPU server 75 ms at a time)",
            1,
            1_000,
            (int) CpuQuota.DEFAULT_PERIOD.toMillis());
    static final Flag<Duration> WAN_RTT = Flag.of(
            null,
            "wan-rtt",
            "DURATION",
            null,
            null,
            "put Toxiproxy in front of nginx with this round trip, e.g. 40ms (half each way):"
                    + " the front URL becomes the proxy's",
            ownMessage("", text -> WanLink.parseDuration("--wan-rtt", text)));
    static final Flag<Duration> WAN_JITTER = Flag.of(
            null,
            "wan-jitter",
            "DURATION",
            null,
            Duration.ZERO,
            "with --wan-rtt: the round trip varies by up to +/- this (default 0ms)",
            ownMessage("", text -> WanLink.parseDuration("--wan-jitter", text)));

    static final List<Flag<?>> FLAGS =
            List.of(SERVERS, REDIS, PORT, SERVER_JAR, SERVER_CPUS, SERVER_CPU_PERIOD, WAN_RTT, WAN_JITTER, Flags.HELP);

    public static final String USAGE = Flags.usage(
                    "java -jar liftride-cluster.jar [--servers N] [--redis HOST:PORT] [--port N] [--server-jar PATH]"
                            + " [--server-cpus CPUS [--server-cpu-period-ms MS]] [--wan-rtt DURATION [--wan-jitter"
                            + " DURATION]]",
                    "Starts Redis (AOF), N LiftRide servers sharing it and nginx round robin in front, on 127.0.0.1;"
                            + " prints every URL and port; Ctrl-C stops everything.",
                    FLAGS,
                    null)
            .stripTrailing();

    public ClusterOptions {
        if (servers < 1 || servers > MAX_SERVERS) {
            throw new IllegalArgumentException("servers must be in 1.." + MAX_SERVERS + ", got " + servers);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, got " + port);
        }
        if (serverJar == null) {
            throw new IllegalArgumentException("serverJar is null");
        }
    }

    /**
     * Parses the command line.
     *
     * @throws UsageException one line naming the flag and the value
     */
    public static ClusterOptions parse(String... args) throws UsageException {
        CommandLine line = Flags.parseOnlyFlags(args, FLAGS);
        if (Flags.HELP.valueIn(line)) {
            return DEFAULTS.withHelp(true);
        }
        try {
            return new ClusterOptions(
                    SERVERS.valueIn(line),
                    REDIS.valueIn(line),
                    PORT.valueIn(line),
                    SERVER_JAR.valueIn(line),
                    serverCpus(line),
                    wan(line),
                    false);
        } catch (IllegalArgumentException e) { // CpuQuota's and WanLink's rules, which name their flags
            throw new UsageException(e.getMessage());
        }
    }

    private static CpuQuota serverCpus(CommandLine line) throws UsageException {
        Double cpus = SERVER_CPUS.valueIn(line);
        if (cpus == null) {
            if (line.hasOption(SERVER_CPU_PERIOD.longName())) {
                throw new UsageException("--server-cpu-period-ms needs --server-cpus");
            }
            return null;
        }
        return new CpuQuota(cpus, Duration.ofMillis(SERVER_CPU_PERIOD.valueIn(line)));
    }

    private static WanLink wan(CommandLine line) throws UsageException {
        Duration rtt = WAN_RTT.valueIn(line);
        if (rtt == null) {
            if (line.hasOption(WAN_JITTER.longName())) {
                throw new UsageException("--wan-jitter needs --wan-rtt");
            }
            return null;
        }
        return new WanLink(rtt, WAN_JITTER.valueIn(line));
    }
}
