package io.upic.liftride.client.cli;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.Transport;
import io.upic.liftride.client.plan.PhasePlan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.commons.cli.AlreadySelectedException;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * The client's flags (Apache Commons CLI) and their parser. {@link #base()} returns a fresh
 * {@link Options} a caller may extend (client-part2 adds {@code --out}) before calling
 * {@link #parse(Options, String[])}; the parser validates every flag of the base set and reports the
 * first problem as a one-line {@link UsageException}. Static and thread-safe.
 *
 * <p>Defaults: -l 40, -m 10, --resort 1, --season 2022, --day 1, --plan fall2021, no seed,
 * --connect-timeout-ms 5000, --read-timeout-ms 10000, --baseline 10000, --transport sdk, --backoff-ms 10,
 * --backoff-max-ms 1000 (or --backoff-ms if larger), --give-up-after-ms 15000; no -i starts the embedded
 * server.
 */
public final class RunOptions {

    public static final int DEFAULT_LIFTS = 40;
    public static final int DEFAULT_MEAN_RUNS = 10;
    public static final int DEFAULT_RESORT = 1;
    public static final int DEFAULT_SEASON = 2022;
    public static final int DEFAULT_DAY = 1;
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
    public static final int DEFAULT_READ_TIMEOUT_MS = 10_000;
    public static final int DEFAULT_BASELINE = 10_000;

    /** What each base flag accepts, for the "needs a value" message. */
    private static final java.util.Map<String, String> ALLOWED = java.util.Map.ofEntries(
            java.util.Map.entry("threads", "an integer in 1..1024, or a comma-separated list"),
            java.util.Map.entry("skiers", "an integer in 1..100000"),
            java.util.Map.entry("lifts", "an integer in 5..60"),
            java.util.Map.entry("mean-runs", "an integer in 1..20"),
            java.util.Map.entry("ip", "host, host:port or http://host:port/path"),
            java.util.Map.entry("resort", "an integer in 1..2147483647"),
            java.util.Map.entry("season", "an integer in 1000..9999"),
            java.util.Map.entry("day", "an integer in 1..366"),
            java.util.Map.entry("plan", "one of " + String.join(", ", PhasePlan.names())),
            java.util.Map.entry("seed", "a 64-bit integer"),
            java.util.Map.entry("connect-timeout-ms", "an integer in 1..600000"),
            java.util.Map.entry("read-timeout-ms", "an integer in 1..600000"),
            java.util.Map.entry("baseline", "an integer in 0..1000000"),
            java.util.Map.entry("backoff-ms", "an integer in 0..60000"),
            java.util.Map.entry("backoff-max-ms", "an integer in 0..600000, at least --backoff-ms"),
            java.util.Map.entry("give-up-after-ms", "an integer in 0..3600000"),
            java.util.Map.entry("transport", "one of " + Transport.names()));

    private RunOptions() {}

    /** A new, mutable set of the base flags. */
    public static Options base() {
        Options o = new Options();
        o.addOption(Option.builder("t")
                .longOpt("threads")
                .hasArg()
                .argName("N[,N...]")
                .desc("threads of the peak phase, 1..1024 (required); a comma-separated list such as 32,64,128,256 "
                        + "runs the plan once per count, back to back on the same server")
                .build());
        o.addOption(Option.builder("s")
                .longOpt("skiers")
                .hasArg()
                .argName("N")
                .desc("skiers to generate rides for (skierIDs 1..N), 1..100000 (required)")
                .build());
        o.addOption(Option.builder("l")
                .longOpt("lifts")
                .hasArg()
                .argName("N")
                .desc("lifts (liftIDs 1..N), 5..60, default " + DEFAULT_LIFTS)
                .build());
        o.addOption(Option.builder("m")
                .longOpt("mean-runs")
                .hasArg()
                .argName("N")
                .desc("mean lift rides per skier per day, 1..20, default " + DEFAULT_MEAN_RUNS)
                .build());
        o.addOption(Option.builder("i")
                .longOpt("ip")
                .hasArg()
                .argName("SERVER")
                .desc(
                        "server as host, host:port (port " + ServerAddress.DEFAULT_PORT + ", path "
                                + ServerAddress.CONTEXT_PATH
                                + ") or a base URL like http://host:8080/liftride; default: start the embedded server on a free loopback port")
                .build());
        o.addOption(Option.builder()
                .longOpt("resort")
                .hasArg()
                .argName("ID")
                .desc("resortID of every ride, 1..2147483647, default " + DEFAULT_RESORT)
                .build());
        o.addOption(Option.builder()
                .longOpt("season")
                .hasArg()
                .argName("YEAR")
                .desc("seasonID of every ride, 1000..9999, default " + DEFAULT_SEASON)
                .build());
        o.addOption(Option.builder()
                .longOpt("day")
                .hasArg()
                .argName("N")
                .desc("dayID of every ride, 1..366, default " + DEFAULT_DAY)
                .build());
        o.addOption(Option.builder()
                .longOpt("plan")
                .hasArg()
                .argName("NAME")
                .desc("phase plan: " + String.join(" or ", PhasePlan.names()) + ", default "
                        + PhasePlan.names().get(0))
                .build());
        o.addOption(Option.builder()
                .longOpt("seed")
                .hasArg()
                .argName("N")
                .desc("seed for reproducible ride data (64-bit integer); default: unseeded")
                .build());
        o.addOption(Option.builder()
                .longOpt("connect-timeout-ms")
                .hasArg()
                .argName("MS")
                .desc("TCP connect timeout, 1..600000, default " + DEFAULT_CONNECT_TIMEOUT_MS)
                .build());
        o.addOption(Option.builder()
                .longOpt("read-timeout-ms")
                .hasArg()
                .argName("MS")
                .desc("read/write timeout per attempt, 1..600000, default " + DEFAULT_READ_TIMEOUT_MS)
                .build());
        o.addOption(Option.builder()
                .longOpt("baseline")
                .hasArg()
                .argName("N")
                .desc(
                        "single-thread baseline for Little's law: N warm-up requests, then N measured for the latency W and"
                                + " the CPU per request D, 0..1000000 (0 = skip), default " + DEFAULT_BASELINE)
                .build());
        o.addOption(Option.builder()
                .longOpt("backoff-ms")
                .hasArg()
                .argName("MS")
                .desc("backoff before the first retry, doubling per retry, each jittered to 50-100%, 0..60000, default "
                        + RetryPolicy.DEFAULT_BASE_BACKOFF_MILLIS + " (5 retries then wait 155-310 ms in all)")
                .build());
        o.addOption(Option.builder()
                .longOpt("backoff-max-ms")
                .hasArg()
                .argName("MS")
                .desc("cap on one backoff, --backoff-ms..600000, default " + RetryPolicy.DEFAULT_MAX_BACKOFF_MILLIS
                        + " (or --backoff-ms if larger)")
                .build());
        o.addOption(Option.builder()
                .longOpt("give-up-after-ms")
                .hasArg()
                .argName("MS")
                .desc("stop the run when no attempt has had an HTTP answer for this long and attempts keep failing "
                        + "(server gone); the rest is reported as not sent; 0..3600000, 0 = never, default "
                        + RetryPolicy.DEFAULT_GIVE_UP_AFTER_MILLIS)
                .build());
        o.addOption(Option.builder()
                .longOpt("progress")
                .desc("print the progress line on stderr even when not on a terminal")
                .build());
        o.addOption(Option.builder()
                .longOpt("transport")
                .hasArg()
                .argName("NAME")
                .desc("HTTP stack for the load: " + Transport.names() + ", default " + Transport.SDK.cliName())
                .build());
        o.addOption(Option.builder("h")
                .longOpt("help")
                .desc("print this help and exit")
                .build());
        return o;
    }

    /** Parses {@code args} against the base flags. */
    public static ParsedArgs parse(String[] args) throws UsageException {
        return parse(base(), args);
    }

    /**
     * Parses {@code args} against {@code options} (the base flags plus any the caller added) and
     * validates the base flags.
     *
     * @throws UsageException for the first problem, as one line naming flag, value and allowed range
     */
    public static ParsedArgs parse(Options options, String[] args) throws UsageException {
        CommandLine cl;
        try {
            cl = DefaultParser.builder().setAllowPartialMatching(false).build().parse(options, args);
        } catch (UnrecognizedOptionException e) {
            throw new UsageException("unknown flag " + e.getOption());
        } catch (MissingArgumentException e) {
            Option opt = e.getOption();
            String allowed = ALLOWED.get(opt.getLongOpt());
            throw new UsageException(flag(opt) + " needs a value" + (allowed == null ? "" : " (" + allowed + ")"));
        } catch (AlreadySelectedException e) {
            throw new UsageException(e.getMessage());
        } catch (ParseException e) {
            throw new UsageException(e.getMessage());
        }
        if (cl.hasOption("help")) {
            return new ParsedArgs(cl, List.of(), null, true);
        }
        if (!cl.getArgList().isEmpty()) {
            throw new UsageException("unexpected argument " + cl.getArgList().get(0));
        }

        if (!cl.hasOption("threads")) {
            throw new UsageException(ThreadCounts.FLAG + " is required (" + ThreadCounts.rangeText() + ")");
        }
        List<Integer> threadCounts = ThreadCounts.parse(cl.getOptionValue("threads"));
        if (!cl.hasOption("skiers")) {
            throw new UsageException("-s/--skiers is required (an integer in 1..100000)");
        }
        int skiers = intValue(cl, "skiers", "-s/--skiers", 1, 100_000, 0);
        int lifts = intValue(cl, "lifts", "-l/--lifts", 5, 60, DEFAULT_LIFTS);
        int meanRuns = intValue(cl, "mean-runs", "-m/--mean-runs", 1, 20, DEFAULT_MEAN_RUNS);
        String baseUrl = null;
        if (cl.hasOption("ip")) {
            String value = cl.getOptionValue("ip");
            try {
                baseUrl = ServerAddress.toBaseUrl(value);
            } catch (IllegalArgumentException e) {
                throw new UsageException("-i/--ip must be host, host:port or http://host:port/path (" + e.getMessage()
                        + "), got " + value);
            }
        }
        int resort = intValue(cl, "resort", "--resort", 1, Integer.MAX_VALUE, DEFAULT_RESORT);
        int season = intValue(cl, "season", "--season", 1000, 9999, DEFAULT_SEASON);
        int day = intValue(cl, "day", "--day", 1, 366, DEFAULT_DAY);
        String plan = cl.getOptionValue("plan", PhasePlan.names().get(0));
        try {
            plan = PhasePlan.named(plan).name();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--plan must be one of " + String.join(", ", PhasePlan.names()) + ", got " + plan);
        }
        Long seed = null;
        if (cl.hasOption("seed")) {
            String value = cl.getOptionValue("seed");
            try {
                seed = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new UsageException(
                        "--seed must be an integer in " + Long.MIN_VALUE + ".." + Long.MAX_VALUE + ", got " + value);
            }
        }
        int connectTimeout =
                intValue(cl, "connect-timeout-ms", "--connect-timeout-ms", 1, 600_000, DEFAULT_CONNECT_TIMEOUT_MS);
        int readTimeout = intValue(cl, "read-timeout-ms", "--read-timeout-ms", 1, 600_000, DEFAULT_READ_TIMEOUT_MS);
        int baseline = intValue(cl, "baseline", "--baseline", 0, 1_000_000, DEFAULT_BASELINE);
        Transport transport;
        String transportName = cl.getOptionValue("transport", Transport.SDK.cliName());
        try {
            transport = Transport.named(transportName);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--transport must be one of " + Transport.names() + ", got " + transportName);
        }
        RunConfig config = new RunConfig(
                threadCounts.get(0),
                skiers,
                lifts,
                meanRuns,
                baseUrl,
                resort,
                season,
                day,
                plan,
                seed,
                connectTimeout,
                readTimeout,
                baseline,
                cl.hasOption("progress"),
                transport,
                retryPolicy(cl));
        return new ParsedArgs(cl, threadCounts, config, false);
    }

    /** The retry policy: the assignment's 6 attempts, backoff and give-up from the flags. */
    private static RetryPolicy retryPolicy(CommandLine cl) throws UsageException {
        int base = intValue(cl, "backoff-ms", "--backoff-ms", 0, 60_000, (int) RetryPolicy.DEFAULT_BASE_BACKOFF_MILLIS);
        int max;
        if (cl.hasOption("backoff-max-ms")) {
            max = intValue(cl, "backoff-max-ms", "--backoff-max-ms", 0, 600_000, 0);
            if (max < base) {
                throw new UsageException("--backoff-max-ms must be at least --backoff-ms (" + base + "), got "
                        + cl.getOptionValue("backoff-max-ms"));
            }
        } else {
            max = (int) Math.max(base, RetryPolicy.DEFAULT_MAX_BACKOFF_MILLIS);
        }
        int giveUp = intValue(cl, "give-up-after-ms", "--give-up-after-ms", 0, 3_600_000, (int)
                RetryPolicy.DEFAULT_GIVE_UP_AFTER_MILLIS);
        return RetryPolicy.DEFAULT.withBackoff(base, max).withGiveUpAfter(giveUp);
    }

    /** The usage text for {@code options}, headed by {@code command} (e.g. {@code java -jar client-part1.jar}). */
    public static String usage(Options options, String command) {
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(out);
        HelpFormatter f = new HelpFormatter();
        f.setOptionComparator(null); // keep the declaration order: required flags first
        f.printHelp(
                w,
                100,
                command + " -t N -s N [options]",
                null,
                options,
                2,
                2,
                "Exit codes: 0 every request succeeded, 1 a request failed or the server is unreachable, 2 bad flags.",
                false);
        w.flush();
        return out.toString();
    }

    /** An int flag in min..max, or {@code def} when absent. */
    private static int intValue(CommandLine cl, String longOpt, String flag, int min, int max, int def)
            throws UsageException {
        if (!cl.hasOption(longOpt)) {
            return def;
        }
        String value = cl.getOptionValue(longOpt);
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // same message as out of range
        }
        throw new UsageException(flag + " must be an integer in " + min + ".." + max + ", got " + value);
    }

    private static String flag(Option o) {
        if (o.getOpt() != null && o.getLongOpt() != null) {
            return "-" + o.getOpt() + "/--" + o.getLongOpt();
        }
        return o.getOpt() != null ? "-" + o.getOpt() : "--" + o.getLongOpt();
    }
}
