package io.upic.liftride.client.cli;

import static io.upic.liftride.flags.Flag.integer;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.RideValues;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.client.threshold.ThresholdOutlook;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.Flag.Parser;
import io.upic.liftride.flags.Flags;
import io.upic.liftride.flags.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.commons.cli.CommandLine;

/**
 * The client's flags, one {@link Flag} each, and their parser over {@link Flags}; a caller's own flags are passed
 * to {@link #parse} and {@link #usage}. Errors are one {@link UsageException} line. Static and thread-safe.
 */
public final class RunOptions {

    public static final Flag<List<Integer>> THREADS = Flag.of(
                    "t",
                    "threads",
                    "N[,N...]",
                    Flag.integerRule(1, 1024),
                    null,
                    "threads of the peak phase, 1..1024 (required); a comma-separated list such as 32,64,128,256 runs"
                            + " the plan once per count, back to back on the same server",
                    RunOptions::threadCounts)
            .withMin(1)
            .withMax(1024)
            .withMissingValueHint(Flag.integerRule(1, 1024) + ", or a comma-separated list");
    public static final Flag<Integer> SKIERS =
            integer("s", "skiers", "N", "skiers to generate rides for (skierIDs 1..N)", 1, 100_000, null);
    public static final Flag<Integer> LIFTS =
            integer("l", "lifts", "N", "lifts (liftIDs 1..N)", 5, 60, RideValues.DEFAULT.numLifts());
    public static final Flag<Integer> MEAN_RUNS =
            integer("m", "mean-runs", "N", "mean lift rides per skier per day", 1, 20, 10);
    public static final Flag<String> IP = Flag.of(
                    "i",
                    "ip",
                    "SERVER",
                    "host, host:port or http://host:port/path",
                    null,
                    "server as host, host:port (port " + ServerAddress.DEFAULT_PORT + ", path "
                            + ServerAddress.CONTEXT_PATH + ") or a base URL like http://host:8080/liftride; default: "
                            + "start the embedded server on a free loopback port",
                    ServerAddress::toBaseUrl)
            .withExplainsRejection(true);
    public static final Flag<Integer> RESORT = integer(
            null, "resort", "ID", "resortID of every ride", 1, Integer.MAX_VALUE, RideValues.DEFAULT.resortId());
    public static final Flag<Integer> SEASON =
            integer(null, "season", "YEAR", "seasonID of every ride", 1000, 9999, RideValues.DEFAULT.seasonId());
    public static final Flag<Integer> DAY =
            integer(null, "day", "N", "dayID of every ride", 1, 366, RideValues.DEFAULT.dayId());
    public static final Flag<String> PLAN = Flag.of(
            null,
            "plan",
            "NAME",
            "one of " + String.join(", ", PhasePlan.names()),
            PhasePlan.names().get(0),
            "phase plan: " + String.join(" or ", PhasePlan.names()) + ", default "
                    + PhasePlan.names().get(0),
            text -> PhasePlan.named(text).name());
    public static final Flag<Long> SEED = Flag.of(
                    null,
                    "seed",
                    "N",
                    Flag.integerRule(Long.MIN_VALUE, Long.MAX_VALUE),
                    null,
                    "seed for reproducible ride data (64-bit integer); default: unseeded",
                    text -> Long.parseLong(text.trim()))
            .withMissingValueHint("a 64-bit integer");
    public static final Flag<Integer> CONNECT_TIMEOUT =
            integer(null, "connect-timeout-ms", "MS", "TCP connect timeout", 1, 600_000, 5_000);
    public static final Flag<Integer> READ_TIMEOUT = integer(
            null,
            "read-timeout-ms",
            "MS",
            "read timeout per attempt (writes: the attempt's deadline)",
            1,
            600_000,
            10_000);
    public static final Flag<Integer> BASELINE = integer(
            null,
            "baseline",
            "N",
            "single-thread baseline for Little's law: N warm-up requests, then N measured (each part at most 1.2 s once"
                    + " 200 are sent)"
                    + " for the latency W (0 = skip it, and the prediction; the default with --rate, whose schedule sets"
                    + " the wall time)",
            0,
            1_000_000,
            10_000);
    public static final Flag<Integer> BACKOFF = integer(
            null,
            "backoff-ms",
            "MS",
            "backoff before the first retry, doubling per retry, each jittered to 50-100% (with the defaults 5"
                    + " retries wait 155-310 ms in all)",
            0,
            60_000,
            (int) RetryPolicy.DEFAULT_BASE_BACKOFF_MILLIS);
    /** No default of its own: {@link RetryPolicy#DEFAULT_MAX_BACKOFF_MILLIS}, or --backoff-ms if larger. */
    public static final Flag<Integer> BACKOFF_MAX = integer(null, "backoff-max-ms", "MS", "", 0, 600_000, null)
            .withHelp("cap on one backoff, --backoff-ms..600000, default " + RetryPolicy.DEFAULT_MAX_BACKOFF_MILLIS
                    + " (or --backoff-ms if larger)")
            .withMissingValueHint(Flag.integerRule(0, 600_000) + ", at least --backoff-ms");

    public static final Flag<Integer> GIVE_UP = integer(
            null,
            "give-up-after-ms",
            "MS",
            "stop the run when attempts have kept failing (error answers or none) without a success for this long;"
                    + " the rest is reported as not sent; 0 = never (keep going against a server that only errs)",
            0,
            3_600_000,
            (int) RetryPolicy.DEFAULT_GIVE_UP_AFTER_MILLIS);
    public static final Flag<Duration> MAX_DURATION = explained(
            "max-duration",
            "DURATION",
            MaxDuration.RULE,
            "stop sending once the whole command has run this long (90s, 10m, 1.5h; 0 = no limit), let the"
                    + " attempts in flight end, reconcile, write every output and exit "
                    + ExitCodes.DEADLINE + "; default: 1h plus " + MaxDuration.DEFAULT_MILLIS_PER_REQUEST
                    + " ms per planned request (the open model: twice its schedule if longer)",
            MaxDuration::parse);
    public static final Flag<Boolean> RECALIBRATE = Flag.toggle(
            null,
            "recalibrate",
            "ignore the CPU per request D that earlier runs stored for this machine, server and transport"
                    + " (~/.cache/liftride/calibration, reused for 7 days) and measure it anew");
    public static final Flag<Boolean> PROGRESS =
            Flag.toggle(null, "progress", "print the progress line on stderr even when not on a terminal");
    public static final Flag<Transport> TRANSPORT = Flag.of(
            null,
            "transport",
            "NAME",
            "one of " + Transport.names(),
            Transport.SDK,
            "HTTP stack for the load: " + Transport.names() + ", default " + Transport.SDK.cliName(),
            Transport::named);
    /** Repeatable: read with {@link Flag#valuesIn}. */
    public static final Flag<Threshold> THRESHOLD = explained(
            "threshold",
            "EXPR",
            Threshold.RULE,
            "pass/fail condition checked at the end, repeatable: p99<50ms, p99.9<200ms, mean<10ms, max<2s,"
                    + " failed==0, throughput>5000, intended.p99<100ms (with --rate), p99{op=getSkierDayVertical}"
                    + "<20ms (one operation of --mix); operators < <= > >= =="
                    + ", latency units ns us µs ms s; any FAIL exits " + ThresholdCheck.EXIT_CODE,
            Threshold::parse);

    public static final Flag<Boolean> ABORT_ON_FAIL = Flag.toggle(
            null,
            "abort-on-fail",
            "stop the run as soon as a --threshold can no longer hold, whatever the rest of the run does: stop"
                    + " sending, let the attempts in flight end, reconcile, write every output and exit "
                    + ThresholdCheck.EXIT_CODE + "; a sweep's later runs do not start");
    public static final Flag<Duration> ABORT_DELAY = explained(
            "abort-delay",
            "DURATION",
            MaxDuration.RULE,
            "with --abort-on-fail, judge the thresholds from this long after the run's start (10s, 1m);"
                    + " default 0: from the start",
            MaxDuration::parse);

    public static final Flag<Path> SUMMARY_JSON = explained(
            "summary-json",
            "FILE",
            "a file path",
            "write the run's machine-readable summary (JSON, schema summary.schema.json) to FILE",
            text -> {
                if (text.isBlank()) {
                    throw new IllegalArgumentException("empty path");
                }
                return Path.of(text.trim());
            });
    public static final Flag<Boolean> VERBOSE = Flag.toggle(
            "v",
            "verbose",
            "the full account on the console: the baseline, each phase, the prediction's inputs and the embedded"
                    + " server's lines; default: at most 15 lines per run");
    public static final Flag<MetricsAddress> METRICS_PORT = explained(
            "metrics-port",
            "PORT",
            MetricsAddress.RULE,
            "serve live metrics for Prometheus at http://HOST:PORT/metrics while the client runs (requests"
                    + " sent, successful, failed, retries, in flight, latency; per phase, labelled run_id and"
                    + " shard); 0 = a free port, printed; HOST:PORT listens on one address only; a live view,"
                    + " the summary is the account",
            MetricsAddress::parse);
    public static final Flag<Boolean> QUIET =
            Flag.toggle(null, "quiet", "no progress output at all (neither the line nor the 10 s log lines)");
    public static final Flag<Shard> SHARD = Flag.of(
                    null,
                    "shard",
                    "K/N",
                    "K/N with 1 <= K <= N <= " + Shard.MAX_COUNT,
                    Shard.WHOLE,
                    "send only shard K of N of the plan: N clients given the same flags and their own K send"
                            + " exactly the plan between them (threads dealt round-robin, phase triggers per shard);"
                            + " auto/N takes K - 1 from " + Shard.INDEX_VARIABLE + " (a Kubernetes Indexed Job's"
                            + " pods); default 1/1, the whole plan",
                    Shard::parse)
            .withMissingValueHint("K/N or auto/N")
            .withExplainsRejection(true);
    public static final Flag<Instant> START_AT = explained(
            "start-at",
            "INSTANT",
            StartAt.RULE,
            "start the first run at this instant, after the setup (so that N shards begin together);"
                    + " more than " + StartAt.TOLERANCE.toSeconds() + " s after it the client refuses to"
                    + " start and exits 2; default: at once",
            StartAt::parse);
    public static final Flag<Double> RATE = Flag.of(
            null,
            "rate",
            "R",
            "a number of requests per second in 1..1000000",
            null,
            "open model: the peak phase offers R requests per second (decimals allowed, 1..1000000), each thread"
                    + " sending on a fixed schedule of R / threads per second whatever the answers take, so startup"
                    + " and cooldown offer their share; latency is also measured from each request's intended send"
                    + " time; default: the closed model (each thread sends when its previous answer arrived)",
            RunOptions::rate);
    public static final Flag<Mix> MIX = explained(
            "mix",
            "OPS",
            Mix.RULE,
            "send the contract's operations by weight, named by operationId (" + Operation.ids() + "), e.g."
                    + " writeNewLiftRide=90,getSkierDayVertical=5,getResortSkiersDay=5: each thread draws"
                    + " each request's operation, and its GETs read rides it stored; default: rides only",
            Mix::parse);
    public static final Flag<Integer> MIX_UNKNOWN = Flag.of(
            null,
            "mix-unknown",
            "P%",
            "a percentage 0..100, such as 5%",
            0,
            "with --mix: P% of the GETs ask for a resort no run writes; their 404 is the expected answer"
                    + " (a success, counted as not found in the operation's row); default 0%",
            RunOptions::percent);
    public static final Flag<Ramp> RAMP = explained(
            "ramp",
            "START,TARGET:DURATION,...",
            Ramp.RULE,
            "open model with a ramping rate, in place of the plan's phases and --rate: from START req/s"
                    + " linearly to each TARGET over its DURATION (500,5000:60s,5000:120s,0:30s), one phase per"
                    + " stage, each of -t threads; latency is also measured from each request's intended send"
                    + " time",
            Ramp::parse);
    public static final Flag<Boolean> HELP = Flags.HELP;

    /** client-part1's flags as its usage groups them, the required ones first; the Output group comes 4th. */
    private static final List<Flags.Group> GROUPS = List.of(
            new Flags.Group(
                    "Plan (the load)",
                    List.of(
                            THREADS,
                            SKIERS,
                            LIFTS,
                            MEAN_RUNS,
                            PLAN,
                            RATE,
                            RAMP,
                            MIX,
                            MIX_UNKNOWN,
                            SHARD,
                            START_AT,
                            SEED,
                            RESORT,
                            SEASON,
                            DAY)),
            new Flags.Group("Server (and the prediction's measurement of it)", List.of(IP, BASELINE, RECALIBRATE)),
            new Flags.Group(
                    "Network",
                    List.of(TRANSPORT, CONNECT_TIMEOUT, READ_TIMEOUT, BACKOFF, BACKOFF_MAX, GIVE_UP, MAX_DURATION)),
            new Flags.Group("Output", List.of(VERBOSE, QUIET, PROGRESS, METRICS_PORT, HELP)),
            new Flags.Group("CI checks", List.of(THRESHOLD, ABORT_ON_FAIL, ABORT_DELAY, SUMMARY_JSON)));

    /** Every flag of client-part1, in usage order. */
    public static final List<Flag<?>> FLAGS =
            GROUPS.stream().flatMap(g -> g.flags().stream()).toList();

    /** The standard sweep: the example every usage shows. */
    public static final String STANDARD_SWEEP = "-t 32,64,128,256 -s 20000 -l 40 -m 10";

    /** What client-part1 leaves behind, as its usage says it. */
    private static final String PART1_FILES = "Files: none but --summary-json's; client-part2 takes the same flags"
            + " and writes report.html with charts, percentiles and the CSV of every request.";

    private static final String THREAD_LIST_EXAMPLE = "32,64,128,256";

    private RunOptions() {}

    /** A flag without a short name or default whose rejections give the parser's reason. */
    private static <T> Flag<T> explained(String longName, String argName, String rule, String help, Parser<T> parser) {
        return Flag.of(null, longName, argName, rule, null, help, parser).withExplainsRejection(true);
    }

    /**
     * Parses {@code args} against client-part1's flags plus {@code extra} and validates client-part1's.
     *
     * @throws UsageException for the first problem, as one line naming flag, value and what is allowed
     */
    public static ParsedArgs parse(String[] args, Flag<?>... extra) throws UsageException {
        return parse(System::getenv, args, extra);
    }

    /** {@link #parse(String[], Flag[])} with the environment variables of {@code env} ({@code --shard auto/N}). */
    public static ParsedArgs parse(Function<String, String> env, String[] args, Flag<?>... extra)
            throws UsageException {
        CommandLine cl = Flags.parseOnlyFlags(
                args, Stream.concat(FLAGS.stream(), Stream.of(extra)).toList());
        if (HELP.valueIn(cl)) {
            return new ParsedArgs(cl, List.of(), null, true);
        }
        List<Integer> threadCounts = required(cl, THREADS);
        Workload workload = Workload.builder()
                .threads(threadCounts.get(0))
                .skiers(required(cl, SKIERS))
                .lifts(LIFTS.valueIn(cl))
                .meanRuns(MEAN_RUNS.valueIn(cl))
                .resortId(RESORT.valueIn(cl))
                .seasonId(SEASON.valueIn(cl))
                .dayId(DAY.valueIn(cl))
                .planName(PLAN.valueIn(cl))
                .seed(SEED.valueIn(cl))
                .rate(RATE.valueIn(cl))
                .ramp(ramp(cl))
                .mix(mix(cl))
                .shard(SHARD.withParser(text -> Shard.parse(text, env)).valueIn(cl))
                .startAt(START_AT.valueIn(cl))
                .maxDuration(MAX_DURATION.valueIn(cl))
                .build();
        RunConfig config = new RunConfig(
                new Target(
                        IP.valueIn(cl),
                        TRANSPORT.valueIn(cl),
                        CONNECT_TIMEOUT.valueIn(cl),
                        READ_TIMEOUT.valueIn(cl),
                        retryPolicy(cl)),
                workload,
                new Output(
                        SUMMARY_JSON.valueIn(cl),
                        quiet(cl),
                        VERBOSE.valueIn(cl),
                        PROGRESS.valueIn(cl),
                        METRICS_PORT.valueIn(cl)),
                new Checks(
                        THRESHOLD.valuesIn(cl),
                        abortOnFail(cl),
                        abortDelay(cl),
                        baselineRequests(cl),
                        RECALIBRATE.valueIn(cl)));
        checkShard(workload, threadCounts);
        checkThresholdOperations(config);
        return new ParsedArgs(cl, threadCounts, config, false);
    }

    /** --baseline's N; without the flag, none in the open model, whose schedule, not a prediction, sets the wall. */
    private static int baselineRequests(CommandLine cl) throws UsageException {
        boolean given = cl.hasOption(BASELINE.option().getLongOpt());
        return given || (RATE.valueIn(cl) == null && RAMP.valueIn(cl) == null) ? BASELINE.valueIn(cl) : 0;
    }

    /** client-part1's usage, headed by {@code command}. */
    public static String usage(String command) {
        return usage(command, PART1_FILES);
    }

    /** The usage of client-part1's flags plus {@code output}, headed by {@code command}, with {@code files}. */
    public static String usage(String command, String files, Flag<?>... output) {
        List<Flags.Group> groups = new ArrayList<>(GROUPS);
        List<Flag<?>> outputFlags = new ArrayList<>(List.of(output));
        outputFlags.addAll(GROUPS.get(3).flags());
        groups.set(3, new Flags.Group(GROUPS.get(3).title(), outputFlags));
        return Flags.groupedUsage(
                command + " -t N -s N [options]",
                "Example, the standard sweep: " + command + " " + STANDARD_SWEEP,
                groups,
                files + "\nExit codes: 0 every request succeeded and the counts reconcile; 1 a request failed, the"
                        + " counts do not reconcile or the server is unreachable; 2 a bad flag; "
                        + ThresholdCheck.EXIT_CODE + " every request succeeded but a --threshold failed (or"
                        + " --abort-on-fail stopped the run); "
                        + ExitCodes.UNCHECKED + " the server's ride count could not be read to check the counts; "
                        + ExitCodes.DEADLINE + " --max-duration passed; 130 interrupted by Ctrl-C (after the partial"
                        + " account).");
    }

    private static <T> T required(CommandLine cl, Flag<T> flag) throws UsageException {
        if (!cl.hasOption(flag.longName())) {
            throw flag.missing();
        }
        return flag.valueIn(cl);
    }

    /** The -t value: one thread count or a comma-separated list, in the order given. */
    private static List<Integer> threadCounts(String text) throws UsageException {
        if (text == null || text.isBlank()) {
            throw THREADS.missingValue();
        }
        List<Integer> counts = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            refuse(
                    p.isEmpty(),
                    THREADS.displayName() + " must be a thread count or a comma-separated list like "
                            + THREAD_LIST_EXAMPLE + ", got " + text);
            try {
                int n = Integer.parseInt(p);
                THREADS.check("threads", n);
                counts.add(n);
            } catch (IllegalArgumentException e) {
                throw THREADS.invalid(p);
            }
        }
        return List.copyOf(counts);
    }

    /** --mix with --mix-unknown's share; null without --mix (--mix-unknown alone is refused). */
    private static Mix mix(CommandLine cl) throws UsageException {
        Mix mix = MIX.valueIn(cl);
        int unknown = MIX_UNKNOWN.valueIn(cl);
        refuse(
                mix == null && cl.hasOption(MIX_UNKNOWN.longName()),
                MIX_UNKNOWN.displayName() + " needs " + MIX.displayName() + ": got " + given(cl, MIX_UNKNOWN)
                        + " alone");
        return mix == null ? null : mix.withUnknownPercent(unknown);
    }

    /** A --mix-unknown value: an integer 0..100, with or without a trailing %. */
    private static Integer percent(String text) {
        int p = Integer.parseInt(text.strip().replaceFirst("%$", ""));
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("not in 0..100: " + p);
        }
        return p;
    }

    /** Refuses a threshold on an operation the run does not send: it could only fail. */
    private static void checkThresholdOperations(RunConfig config) throws UsageException {
        Mix mix = config.workload().mix();
        for (Threshold t : config.checks().thresholds()) {
            if (t.operation() != null && (mix == null || !mix.contains(t.operation()))) {
                throw new UsageException(THRESHOLD.displayName() + " " + t.expr() + ": "
                        + t.operation().operationId() + " is not in " + MIX.displayName() + ", got "
                        + (mix == null ? "no " + MIX.displayName() : mix));
            }
        }
    }

    /** --quiet, which contradicts --progress. */
    private static boolean quiet(CommandLine cl) throws UsageException {
        boolean quiet = QUIET.valueIn(cl);
        refuse(
                quiet && PROGRESS.valueIn(cl),
                QUIET.displayName() + " and " + PROGRESS.displayName() + " contradict each other: give one");
        return quiet;
    }

    /** --abort-on-fail, which needs a threshold it can judge while the run goes. */
    private static boolean abortOnFail(CommandLine cl) throws UsageException {
        boolean abort = ABORT_ON_FAIL.valueIn(cl);
        List<Threshold> thresholds = THRESHOLD.valuesIn(cl);
        String needs = ABORT_ON_FAIL.displayName() + " needs a " + THRESHOLD.displayName();
        refuse(abort && thresholds.isEmpty(), needs + " to judge (" + Threshold.RULE + "), got none");
        refuse(
                abort && thresholds.stream().noneMatch(ThresholdOutlook::judgedEarly),
                needs
                        + " it can judge before the end (" + ThresholdOutlook.JUDGED_EARLY + "), got "
                        + thresholds.stream().map(Threshold::expr).toList());
        return abort;
    }

    /** --abort-delay, which only --abort-on-fail uses. */
    private static Duration abortDelay(CommandLine cl) throws UsageException {
        Duration delay = ABORT_DELAY.valueIn(cl);
        refuse(
                delay != null && !ABORT_ON_FAIL.valueIn(cl),
                ABORT_DELAY.displayName() + " applies only with " + ABORT_ON_FAIL.displayName() + ", got "
                        + given(cl, ABORT_DELAY));
        return delay;
    }

    /** Refuses a shard that would get no thread at some -t: a mistake in the command, not a plan. */
    private static void checkShard(Workload workload, List<Integer> threadCounts) throws UsageException {
        Shard shard = workload.shard();
        for (int t : threadCounts) {
            int planThreads = workload.withThreads(t).wholePlan().totalThreads();
            refuse(
                    shard.count() > planThreads,
                    SHARD.displayName() + " " + shard + ": the plan at -t " + t
                            + " has only " + planThreads
                            + " threads in all its phases, so some shards would send nothing;"
                            + " use at most " + planThreads + " shards");
        }
    }

    /** --ramp, which replaces --rate and --plan. */
    private static Ramp ramp(CommandLine cl) throws UsageException {
        Ramp ramp = RAMP.valueIn(cl);
        for (Flag<?> other : List.of(RATE, PLAN)) {
            refuse(
                    ramp != null && cl.hasOption(other.longName()),
                    RAMP.displayName() + " replaces " + other.displayName()
                            + " (its stages are the run's phases and rates): give one");
        }
        return ramp;
    }

    /** The --rate value: a finite decimal number in 1..1000000. */
    private static Double rate(String text) {
        double r = Double.parseDouble(text.trim());
        checkRate("rate", r);
        return r;
    }

    /**
     * Checks an open-model rate (requests per second) against --rate's rule; null (the closed model) passes.
     *
     * @throws IllegalArgumentException e.g. {@code rate not in 1..1000000: 0.5}
     */
    public static void checkRate(String field, Double rate) {
        if (rate != null && !(rate >= 1 && rate <= 1_000_000)) { // NaN fails too
            throw new IllegalArgumentException(field + " not in 1..1000000: " + rate);
        }
    }

    private static void refuse(boolean bad, String message) throws UsageException {
        if (bad) {
            throw new UsageException(message);
        }
    }

    /** "--flag VALUE" as given. */
    private static String given(CommandLine cl, Flag<?> flag) {
        return flag.displayName() + " " + cl.getOptionValue(flag.longName());
    }

    /** The retry policy: the assignment's 6 attempts, backoff and give-up from the flags. */
    private static RetryPolicy retryPolicy(CommandLine cl) throws UsageException {
        int base = BACKOFF.valueIn(cl);
        Integer max = BACKOFF_MAX.valueIn(cl);
        refuse(
                max != null && max < base,
                BACKOFF_MAX.displayName() + " must be at least " + BACKOFF.displayName() + " (" + base + "), got "
                        + cl.getOptionValue(BACKOFF_MAX.longName()));
        max = max != null ? max : (int) Math.max(base, RetryPolicy.DEFAULT_MAX_BACKOFF_MILLIS);
        return RetryPolicy.DEFAULT.withBackoff(base, max).withGiveUpAfter(GIVE_UP.valueIn(cl));
    }
}
