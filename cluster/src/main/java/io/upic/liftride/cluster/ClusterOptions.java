package io.upic.liftride.cluster;

import io.upic.liftride.testkit.HostPort;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import lombok.With;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * What the local cluster runs: {@code --servers N} LiftRide servers from {@code --server-jar}, Redis
 * (started by us, or the one at {@code --redis HOST:PORT}), and nginx on {@code --port}; each server
 * optionally capped at {@code --server-cpus} in a cgroup of its own, and the front optionally behind a
 * Toxiproxy that plays a {@code --wan-rtt} network. Immutable; {@link #DEFAULTS} with the {@code with...}
 * methods for programmatic use.
 *
 * @param servers LiftRide servers behind nginx, 1..{@value #MAX_SERVERS}
 * @param redis an existing Redis to use, or null to start redis-server with servlet/redis/redis.conf
 * @param port the port of nginx, the front, on 127.0.0.1 (0 picks a free one)
 * @param serverJar the liftride-server.jar each server runs
 * @param serverCpus each server's CPU cap, or null for none
 * @param wan the network between the client and the front, or null for plain loopback
 * @param help whether to print the usage and exit
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

    private static final Options OPTIONS = new Options()
            .addOption(valued(
                    "servers",
                    "N",
                    "LiftRide servers behind nginx, 1.." + MAX_SERVERS + " (default " + DEFAULT_SERVERS + ")"))
            .addOption(valued(
                    "redis",
                    "HOST:PORT",
                    "use this Redis (7.0 or newer) instead of starting redis-server with servlet/redis/redis.conf"))
            .addOption(valued(
                    "port",
                    "N",
                    "port of the front (nginx, or Toxiproxy with --wan-rtt) on 127.0.0.1 (default " + DEFAULT_PORT
                            + "; 0 picks a free port)"))
            .addOption(valued(
                    "server-jar",
                    "PATH",
                    "the liftride-server.jar every server runs (default " + DEFAULT_SERVER_JAR + ")"))
            .addOption(valued(
                    "server-cpus",
                    "CPUS",
                    "cap each server at this much CPU, e.g. 0.25, like a small instance: a cgroup per server"
                            + " (v2 cpu.max or v1 cfs quota; needs root); client, nginx and Redis stay uncapped"))
            .addOption(valued(
                    "server-cpu-period-ms",
                    "MS",
                    "the quota period of --server-cpus, 1..1000 (default " + CpuQuota.DEFAULT_PERIOD.toMillis()
                            + "; the kernel's 100 stalls a 0.25-CPU server 75 ms at a time)"))
            .addOption(valued(
                    "wan-rtt",
                    "DURATION",
                    "put Toxiproxy in front of nginx with this round trip, e.g. 40ms (half each way):"
                            + " the front URL becomes the proxy's"))
            .addOption(valued(
                    "wan-jitter", "DURATION", "with --wan-rtt: the round trip varies by up to +/- this (default 0ms)"))
            .addOption(Option.builder("h")
                    .longOpt("help")
                    .desc("print this help and exit")
                    .build());

    public static final String USAGE = usage();

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

    /** Parses the command line; throws IllegalArgumentException with one line naming the flag and the value. */
    public static ClusterOptions parse(String... args) {
        CommandLine line;
        try {
            line = DefaultParser.builder()
                    .setAllowPartialMatching(false)
                    .build()
                    .parse(OPTIONS, args);
        } catch (UnrecognizedOptionException e) {
            throw new IllegalArgumentException("unknown argument \"" + e.getOption() + "\"");
        } catch (MissingArgumentException e) {
            throw new IllegalArgumentException("--" + e.getOption().getLongOpt() + " needs a value");
        } catch (ParseException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (line.hasOption("help")) {
            return DEFAULTS.withHelp(true);
        }
        if (!line.getArgList().isEmpty()) {
            throw new IllegalArgumentException(
                    "unknown argument \"" + line.getArgList().get(0) + "\"");
        }
        return new ClusterOptions(
                intValue(line, "servers", DEFAULT_SERVERS, 1, MAX_SERVERS),
                line.hasOption("redis") ? redis(line.getOptionValue("redis")) : null,
                intValue(line, "port", DEFAULT_PORT, 0, 65535),
                Path.of(line.getOptionValue("server-jar", DEFAULT_SERVER_JAR.toString())),
                serverCpus(line),
                wan(line),
                false);
    }

    private static CpuQuota serverCpus(CommandLine line) {
        if (!line.hasOption("server-cpus")) {
            if (line.hasOption("server-cpu-period-ms")) {
                throw new IllegalArgumentException("--server-cpu-period-ms needs --server-cpus");
            }
            return null;
        }
        String text = line.getOptionValue("server-cpus");
        double cpus;
        try {
            cpus = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--server-cpus must be a number of CPUs like 0.25, got \"" + text + "\"");
        }
        int periodMillis = intValue(line, "server-cpu-period-ms", (int) CpuQuota.DEFAULT_PERIOD.toMillis(), 1, 1_000);
        return new CpuQuota(cpus, Duration.ofMillis(periodMillis));
    }

    private static WanLink wan(CommandLine line) {
        if (!line.hasOption("wan-rtt")) {
            if (line.hasOption("wan-jitter")) {
                throw new IllegalArgumentException("--wan-jitter needs --wan-rtt");
            }
            return null;
        }
        return new WanLink(
                WanLink.parseDuration("--wan-rtt", line.getOptionValue("wan-rtt")),
                WanLink.parseDuration("--wan-jitter", line.getOptionValue("wan-jitter", "0ms")));
    }

    private static int intValue(CommandLine line, String name, int fallback, int min, int max) {
        if (!line.hasOption(name)) {
            return fallback;
        }
        String text = line.getOptionValue(name);
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            value = min - 1;
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "--" + name + " must be an integer in " + min + ".." + max + ", got \"" + text + "\"");
        }
        return value;
    }

    private static HostPort redis(String text) {
        try {
            return HostPort.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--redis " + e.getMessage(), e);
        }
    }

    private static Option valued(String name, String argName, String description) {
        return Option.builder()
                .longOpt(name)
                .hasArg()
                .argName(argName)
                .desc(description)
                .build();
    }

    private static String usage() {
        StringWriter out = new StringWriter();
        HelpFormatter help = new HelpFormatter();
        help.setWidth(100);
        help.printHelp(
                new PrintWriter(out),
                help.getWidth(),
                "java -jar liftride-cluster.jar [--servers N] [--redis HOST:PORT] [--port N] [--server-jar PATH]"
                        + " [--server-cpus CPUS [--server-cpu-period-ms MS]] [--wan-rtt DURATION [--wan-jitter DURATION]]",
                "Starts Redis (AOF), N LiftRide servers sharing it and nginx round robin in front, on 127.0.0.1;"
                        + " prints every URL and port; Ctrl-C stops everything.",
                OPTIONS,
                help.getLeftPadding(),
                help.getDescPadding(),
                null);
        return out.toString().stripTrailing();
    }
}
