package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdOutlook;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunOptionsTest {

    private static RunConfig parse(String... args) throws UsageException {
        return RunOptions.parse(args).config();
    }

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> RunOptions.parse(args)).getMessage();
    }

    @Test
    void onlyThreadsAndSkiersGivenUsesTheDocumentedDefaults() throws Exception {
        RunConfig c = parse("-t", "32", "-s", "20000");
        assertEquals(40, c.workload().lifts());
        assertEquals(10, c.workload().meanRuns());
        assertNull(c.target().baseUrl());
        assertTrue(c.target().embeddedServer());
        assertEquals(1, c.workload().resortId());
        assertEquals(2022, c.workload().seasonId());
        assertEquals(1, c.workload().dayId());
        assertEquals("fall2021", c.workload().planName());
        assertNull(c.workload().seed());
        assertEquals(5_000, c.target().connectTimeoutMillis());
        assertEquals(10_000, c.target().readTimeoutMillis());
        assertEquals(10_000, c.checks().baselineRequests());
        assertFalse(c.output().progress());
        assertEquals(Transport.SDK, c.target().transport());
        assertEquals(RetryPolicy.DEFAULT, c.target().retryPolicy());
    }

    @Test
    void everyFlagIsParsedInShortAndLongForm() throws Exception {
        RunConfig c = parse(
                "--threads=64",
                "--skiers",
                "1000",
                "-l",
                "5",
                "--mean-runs",
                "20",
                "-i",
                "example.org:9090",
                "--resort",
                "7",
                "--season",
                "2019",
                "--day",
                "366",
                "--plan",
                "spring2022",
                "--seed",
                "-42",
                "--connect-timeout-ms",
                "100",
                "--read-timeout-ms",
                "200",
                "--baseline",
                "0",
                "--progress",
                "--transport",
                "SDK",
                "--rate",
                "3000");
        assertEquals(
                Fixtures.config().workload().toBuilder()
                        .threads(64)
                        .skiers(1000)
                        .lifts(5)
                        .meanRuns(20)
                        .resortId(7)
                        .seasonId(2019)
                        .dayId(366)
                        .planName("spring2022")
                        .seed(-42L)
                        .rate(3000.0)
                        .build(),
                c.workload());
        assertEquals(
                new Target("http://example.org:9090/liftride", Transport.SDK, 100, 200, RetryPolicy.DEFAULT),
                c.target());
        assertEquals(new Output(null, false, false, true, null), c.output());
        assertEquals(new Checks(List.of(), false, null, 0, false), c.checks());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "-t | 0     | -t/--threads must be an integer in 1..1024, got 0",
                "-t | 1025  | -t/--threads must be an integer in 1..1024, got 1025",
                "-t | abc   | -t/--threads must be an integer in 1..1024, got abc",
                "-t | 3.5   | -t/--threads must be an integer in 1..1024, got 3.5",
                "-s | 0     | -s/--skiers must be an integer in 1..100000, got 0",
                "-s | 100001| -s/--skiers must be an integer in 1..100000, got 100001",
                "-l | 4     | -l/--lifts must be an integer in 5..60, got 4",
                "-l | 61    | -l/--lifts must be an integer in 5..60, got 61",
                "-m | 0     | -m/--mean-runs must be an integer in 1..20, got 0",
                "-m | 21    | -m/--mean-runs must be an integer in 1..20, got 21",
                "--resort | 0 | --resort must be an integer in 1..2147483647, got 0",
                "--season | 22 | --season must be an integer in 1000..9999, got 22",
                "--day | 367 | --day must be an integer in 1..366, got 367",
                "--plan | winter | --plan must be one of fall2021, spring2022, got winter",
                "--seed | x | --seed must be an integer in -9223372036854775808..9223372036854775807, got x",
                "--connect-timeout-ms | 0 | --connect-timeout-ms must be an integer in 1..600000, got 0",
                "--read-timeout-ms | -5 | --read-timeout-ms must be an integer in 1..600000, got -5",
                "--baseline | -1 | --baseline must be an integer in 0..1000000, got -1",
                "--transport | tcp | --transport must be one of sdk, raw, got tcp",
                "--rate | 0 | --rate must be a number of requests per second in 1..1000000, got 0",
                "--rate | -5 | --rate must be a number of requests per second in 1..1000000, got -5",
                "--rate | 0.5 | --rate must be a number of requests per second in 1..1000000, got 0.5",
                "--rate | 1000000.5 | --rate must be a number of requests per second in 1..1000000, got 1000000.5",
                "--rate | NaN | --rate must be a number of requests per second in 1..1000000, got NaN",
                "--rate | Infinity | --rate must be a number of requests per second in 1..1000000, got Infinity",
                "--rate | 3k | --rate must be a number of requests per second in 1..1000000, got 3k",
                "-i | host:99999 | '-i/--ip must be host, host:port or http://host:port/path (port must be an integer in 1..65535, got 99999), got host:99999'",
                "-i | ftp://x/y | '-i/--ip must be host, host:port or http://host:port/path (must use http or https), got ftp://x/y'",
            })
    void badValueGivesOneLineNamingTheFlagTheValueAndTheRange(String flag, String value, String message) {
        String[] args = switch (flag) {
            case "-t" -> new String[] {"-t", value, "-s", "20000"};
            case "-s" -> new String[] {"-t", "32", "-s", value};
            default -> new String[] {"-t", "32", "-s", "20000", flag, value};
        };
        assertEquals(message, error(args));
    }

    @Test
    void theOpenModelRunsNoBaselineUnlessOneIsAskedFor() throws Exception {
        assertEquals(
                0, parse("-t", "64", "-s", "20000", "--rate", "3000").checks().baselineRequests());
        assertEquals(
                500,
                parse("-t", "64", "-s", "20000", "--rate", "3000", "--baseline", "500")
                        .checks()
                        .baselineRequests());
        assertEquals(
                0,
                parse("-t", "8", "-s", "100", "--ramp", "500,5000:60s").checks().baselineRequests());
        assertEquals(10_000, parse("-t", "64", "-s", "20000").checks().baselineRequests());
    }

    @Test
    void rateIsTheOpenModelWithDecimalsAndItsAbsenceTheClosedModel() throws Exception {
        RunConfig open = parse("-t", "64", "-s", "20000", "--rate", "2500.5");
        assertEquals(2500.5, open.workload().rate());
        assertEquals(64, open.workload().openModel().peakThreads());
        assertEquals(Math.round(64 * 1e9 / 2500.5), open.workload().openModel().intervalNanos());
        RunConfig closed = parse("-t", "64", "-s", "20000");
        assertNull(closed.workload().rate());
        assertNull(closed.workload().openModel());
        assertEquals(
                "--rate needs a value (a number of requests per second in 1..1000000)",
                error("-t", "32", "-s", "1", "--rate"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> closed.workload().withRate(0.0));
        assertEquals("rate not in 1..1000000: 0.0", e.getMessage());
    }

    @Test
    void rampReplacesThePlansPhasesWithItsStages() throws Exception {
        RunConfig c = parse("-t", "8", "-s", "100", "--ramp", "500,5000:60s,5000:120s,0:30s");
        assertEquals("500,5000:60s,5000:120s,0:30s", c.workload().ramp().text());
        assertNull(c.workload().openModel());
        assertEquals("ramp", c.workload().loadPlan().planName());
        assertEquals(3, c.workload().loadPlan().phases().size());
        assertEquals(840_000, c.workload().loadPlan().totalRequests());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--rate | 100 | --ramp replaces --rate (its stages are the run's phases and rates): give one",
                "--plan | spring2022 | --ramp replaces --plan (its stages are the run's phases and rates): give one",
            })
    void rampRefusesTheFlagsItReplaces(String flag, String value, String message) {
        assertEquals(message, error("-t", "8", "-s", "100", "--ramp", "10,20:1s", flag, value));
    }

    @Test
    void aBadRampStageIsOneLineNamingTheFlagTheRuleAndTheValue() {
        assertEquals(
                "--ramp must be " + Ramp.RULE + " (stage 2 duration is not a number and a unit: 2x), got 10,20:1s,5:2x",
                error("-t", "8", "-s", "100", "--ramp", "10,20:1s,5:2x"));
    }

    @Test
    void missingRequiredFlagsSayWhatIsNeeded() {
        assertEquals("-t/--threads is required (an integer in 1..1024)", error("-s", "20000"));
        assertEquals("-s/--skiers is required (an integer in 1..100000)", error("-t", "32"));
    }

    @Test
    void flagWithoutItsValueIsNamed() {
        assertEquals("-s/--skiers needs a value (an integer in 1..100000)", error("-t", "32", "-s"));
        assertEquals("--plan needs a value (one of fall2021, spring2022)", error("-t", "32", "-s", "1", "--plan"));
        assertEquals(
                "-t/--threads needs a value (an integer in 1..1024, or a comma-separated list)",
                error("-s", "1", "-t"));
    }

    @Test
    void unknownFlagsAndStrayArgumentsAreRejected() {
        assertEquals("unknown flag --foo", error("-t", "32", "-s", "20000", "--foo"));
        // no silent prefix matching: --thread is not --threads
        assertEquals("unknown flag --thread", error("--thread", "32", "-s", "20000"));
        assertEquals("unexpected argument extra", error("-t", "32", "-s", "20000", "extra"));
        // a removed benchmark aid: rejected like any other unknown flag
        assertEquals("unknown flag --jit-warmup", error("-t", "32", "-s", "20000", "--jit-warmup"));
    }

    @Test
    void threadListIsAcceptedForASweepAndEachConfigGetsItsCount() throws Exception {
        ParsedArgs p = RunOptions.parse(new String[] {"-t", "32,64, 128,256", "-s", "20000"});
        assertEquals(List.of(32, 64, 128, 256), p.threadCounts());
        assertEquals(32, p.config().workload().threads());
        assertEquals("-t/--threads must be an integer in 1..1024, got 2000", error("-t", "32,2000", "-s", "1"));
        assertEquals(
                "-t/--threads must be a thread count or a comma-separated list like 32,64,128,256, got 32,,64",
                error("-t", "32,,64", "-s", "1"));
    }

    @Test
    void helpNeedsNoOtherFlags() throws Exception {
        ParsedArgs p = RunOptions.parse(new String[] {"--help"});
        assertTrue(p.helpRequested());
        assertNull(p.config());
        String usage = RunOptions.usage("java -jar client-part1.jar");
        assertTrue(usage.contains("-t,--threads <N[,N...]>"), usage);
        assertTrue(usage.contains("--transport <NAME>"), usage);
    }

    @Test
    void callersCanAddTheirOwnFlagsAndReadThemBack() throws Exception {
        Flag<String> out = Flag.of(null, "out", "DIR", "a folder", null, "where to write", text -> text);
        ParsedArgs p = RunOptions.parse(new String[] {"-t", "8", "-s", "10", "--out", "/tmp/x"}, out);
        assertEquals("/tmp/x", out.valueIn(p.commandLine()));
        assertEquals(8, p.config().workload().threads());
        assertEquals(
                "--out needs a value (a folder)",
                assertThrows(UsageException.class, () -> RunOptions.parse(new String[] {"--out"}, out))
                        .getMessage());
        assertTrue(RunOptions.usage("client", "files", out).contains("--out <DIR>"));
    }

    @Test
    void withersChangeOneFieldAndValidate() {
        RunConfig c = Fixtures.config();
        assertEquals(256, c.withThreads(256).workload().threads());
        assertEquals(c.workload().skiers(), c.withThreads(256).workload().skiers());
        assertEquals(
                "threads not in 1..1024: 0",
                assertThrows(IllegalArgumentException.class, () -> c.withThreads(0))
                        .getMessage());
        assertEquals(180_000, c.workload().loadPlan().totalRequests());
    }

    @Test
    void thresholdIsRepeatableAndKeepsTheOrderGiven() throws Exception {
        RunConfig c = parse(
                "-t",
                "32",
                "-s",
                "20000",
                "--threshold",
                "p99<50ms",
                "--threshold",
                "failed==0",
                "--threshold=mean<2ms");
        assertEquals(
                List.of("p99<50ms", "failed==0", "mean<2ms"),
                c.checks().thresholds().stream().map(Threshold::expr).toList());
        assertEquals(List.of(), parse("-t", "32", "-s", "20000").checks().thresholds());
    }

    @Test
    void aMalformedThresholdIsOneLineNamingItAndWhy() {
        assertEquals(
                "--threshold must be " + Threshold.RULE + " (a latency bound needs a unit: ns, us, µs, ms or s), got"
                        + " p99<50",
                error("-t", "32", "-s", "20000", "--threshold", "p99<5ms", "--threshold", "p99<50"));
        assertTrue(error("-t", "32", "-s", "20000", "--threshold", "p99x<5ms").contains("unknown metric p99x"));
        assertEquals(
                "--threshold needs a value (" + Threshold.RULE + ")", error("-t", "32", "-s", "20000", "--threshold"));
    }

    @Test
    void abortOnFailTakesADelayAndIsOffWithoutTheFlag() throws Exception {
        RunConfig c =
                parse("-t", "32", "-s", "20000", "--threshold", "p99<50ms", "--abort-on-fail", "--abort-delay", "10s");
        assertTrue(c.checks().abortOnFail());
        assertEquals(Duration.ofSeconds(10), c.checks().abortDelay());
        assertEquals(
                Duration.ZERO,
                parse("-t", "32", "-s", "20000", "--threshold", "p99<50ms", "--abort-on-fail")
                        .checks()
                        .abortDelay());
        assertFalse(parse("-t", "32", "-s", "20000", "--threshold", "p99<50ms")
                .checks()
                .abortOnFail());
    }

    @Test
    void abortOnFailWithoutAThresholdOrABadDelayIsOneLineNamingFlagRuleAndValue() {
        assertEquals(
                "--abort-on-fail needs a --threshold to judge (" + Threshold.RULE + "), got none",
                error("-t", "32", "-s", "20000", "--abort-on-fail"));
        assertEquals(
                "--abort-delay must be " + MaxDuration.RULE + " (a number and a unit), got 10",
                error("-t", "32", "-s", "20000", "--threshold", "p99<5ms", "--abort-on-fail", "--abort-delay", "10"));
        assertEquals(
                "--abort-on-fail needs a --threshold it can judge before the end (" + ThresholdOutlook.JUDGED_EARLY
                        + "), got [p99>5ms, throughput<10]",
                error(
                        "-t",
                        "32",
                        "-s",
                        "20000",
                        "--threshold",
                        "p99>5ms",
                        "--threshold",
                        "throughput<10",
                        "--abort-on-fail"));
        assertEquals(
                "--abort-delay applies only with --abort-on-fail, got --abort-delay 10s",
                error("-t", "32", "-s", "20000", "--threshold", "p99<5ms", "--abort-delay", "10s"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Fixtures.config().checks().withAbortOnFail(true));
        assertEquals("abortOnFail without thresholds", e.getMessage());
    }

    @Test
    void summaryJsonAndQuietAreParsedAndQuietContradictsProgress() throws Exception {
        RunConfig c = parse("-t", "32", "-s", "20000", "--summary-json", "out/s.json", "--quiet");
        assertEquals(Path.of("out/s.json"), c.output().summaryJson());
        assertTrue(c.output().quiet());
        assertNull(parse("-t", "32", "-s", "20000").output().summaryJson());
        assertFalse(parse("-t", "32", "-s", "20000").output().quiet());
        assertEquals(
                "--quiet and --progress contradict each other: give one",
                error("-t", "32", "-s", "20000", "--quiet", "--progress"));
        assertEquals(
                "--summary-json must be a file path (empty path), got  ",
                error("-t", "32", "-s", "20000", "--summary-json", " "));
    }

    @Test
    void shardDefaultsToTheWholePlanAndParsesKOfN() throws Exception {
        assertEquals(
                io.upic.liftride.client.plan.Shard.WHOLE,
                parse("-t", "8", "-s", "100").workload().shard());
        RunConfig c = parse("-t", "64", "-s", "20000", "--shard", "2/4");
        assertEquals(new io.upic.liftride.client.plan.Shard(2, 4), c.workload().shard());
        assertEquals(
                c.workload().wholePlan().totalRequests() / 4,
                c.workload().loadPlan().totalRequests(),
                1_000);
        assertTrue(c.workload().loadPlan().totalRequests()
                < c.workload().wholePlan().totalRequests());
    }

    @ParameterizedTest(name = "--shard {0}")
    @CsvSource({"0/4", "5/4", "1/1025", "2", "a/b", "1/2/3"})
    void malformedShardIsOneLineNamingFlagRuleAndValue(String value) {
        String e = error("-t", "8", "-s", "100", "--shard", value);
        assertTrue(e.startsWith("--shard must be K/N with 1 <= K <= N <= 1024 ("), e);
        assertTrue(e.endsWith(", got " + value), e);
        assertFalse(e.contains("\n"), e);
    }

    @Test
    void autoShardReadsTheCompletionIndexFromTheEnvironmentItIsGiven() throws Exception {
        String[] args = {"-t", "8", "-s", "100", "--shard", "auto/3"};
        RunConfig c = RunOptions.parse(name -> name.equals("JOB_COMPLETION_INDEX") ? "2" : null, args)
                .config();
        assertEquals(new io.upic.liftride.client.plan.Shard(3, 3), c.workload().shard());
        UsageException e = assertThrows(UsageException.class, () -> RunOptions.parse(name -> null, args));
        assertEquals(
                "--shard must be K/N with 1 <= K <= N <= 1024 (auto/N takes K - 1 from JOB_COMPLETION_INDEX, an"
                        + " integer in 0..2; it is unset), got auto/3",
                e.getMessage());
    }

    @Test
    void startAtIsAnIso8601InstantAndAbsentMeansAtOnce() throws Exception {
        assertNull(parse("-t", "8", "-s", "100").workload().startAt());
        assertEquals(
                java.time.Instant.parse("2026-12-01T09:00:00Z"),
                parse("-t", "8", "-s", "100", "--start-at", "2026-12-01T09:00:00Z")
                        .workload()
                        .startAt());
        assertEquals(
                java.time.Instant.parse("2026-12-01T08:00:00Z"),
                parse("-t", "8", "-s", "100", "--start-at", "2026-12-01T09:00:00+01:00")
                        .workload()
                        .startAt());
        assertEquals(
                "--start-at must be an ISO-8601 instant such as 2026-12-01T09:00:00Z (not an instant with a date, a"
                        + " time and a zone), got 2026-12-01 09:00",
                error("-t", "8", "-s", "100", "--start-at", "2026-12-01 09:00"));
    }

    @Test
    void moreShardsThanThePlanHasThreadsIsRefusedAtTheSmallestThreadCountOfASweep() {
        // -t 1: 1 + 1 + 1 threads; -t 8: 2 + 8 + 2
        String e = error("-t", "8,1", "-s", "100", "--shard", "1/4");
        assertEquals(
                "--shard 1/4: the plan at -t 1 has only 3 threads in all its phases, so some shards would send"
                        + " nothing; use at most 3 shards",
                e);
    }

    @Test
    void mixIsParsedWithItsUnknownShareAndAbsentMeansRidesOnly() throws Exception {
        RunConfig c = parse(
                "-t", "8", "-s", "100", "--mix", "writeNewLiftRide=90,getSkierDayVertical=10", "--mix-unknown", "5%");
        assertEquals(
                Map.of(Operation.WRITE_NEW_LIFT_RIDE, 90, Operation.GET_SKIER_DAY_VERTICAL, 10),
                c.workload().mix().weights());
        assertEquals(5, c.workload().mix().unknownPercent());
        assertEquals(
                0,
                parse("-t", "8", "-s", "100", "--mix", "writeNewLiftRide=1")
                        .workload()
                        .mix()
                        .unknownPercent());
        assertNull(parse("-t", "8", "-s", "100").workload().mix());
    }

    @Test
    void aBadMixIsOneLineNamingTheFlagAndWhy() {
        assertEquals(
                "--mix must be " + Mix.RULE + " (no writeNewLiftRide in the mix: its GETs read what the run writes),"
                        + " got getSkierDayVertical=1",
                error("-t", "8", "-s", "100", "--mix", "getSkierDayVertical=1"));
        assertEquals(
                "--mix-unknown must be a percentage 0..100, such as 5%, got 101%",
                error("-t", "8", "-s", "100", "--mix", "writeNewLiftRide=1", "--mix-unknown", "101%"));
        assertEquals(
                "--mix-unknown needs --mix: got --mix-unknown 5% alone",
                error("-t", "8", "-s", "100", "--mix-unknown", "5%"));
    }

    @Test
    void aThresholdOnAnOperationIsParsedAndOneOutsideTheMixIsRefused() throws Exception {
        RunConfig c = parse(
                "-t",
                "8",
                "-s",
                "100",
                "--mix",
                "writeNewLiftRide=9,getResortSkiersDay=1",
                "--threshold",
                "p99{op=getResortSkiersDay}<20ms");
        assertEquals(
                Operation.GET_RESORT_SKIERS_DAY, c.checks().thresholds().get(0).operation());
        assertNull(parse("-t", "8", "-s", "100", "--threshold", "p99<20ms")
                .checks()
                .thresholds()
                .get(0)
                .operation());
        assertEquals(
                "--threshold p99{op=getSkierDayVertical}<20ms: getSkierDayVertical is not in --mix, got"
                        + " writeNewLiftRide=9,getResortSkiersDay=1",
                error(
                        "-t",
                        "8",
                        "-s",
                        "100",
                        "--mix",
                        "writeNewLiftRide=9,getResortSkiersDay=1",
                        "--threshold",
                        "p99{op=getSkierDayVertical}<20ms"));
        assertEquals(
                "--threshold mean{op=writeNewLiftRide}<1s: writeNewLiftRide is not in --mix, got no --mix",
                error("-t", "8", "-s", "100", "--threshold", "mean{op=writeNewLiftRide}<1s"));
        assertTrue(error("-t", "8", "-s", "100", "--threshold", "p99{op=getResorts}<1s")
                .contains("unknown operation getResorts; operations: writeNewLiftRide, "));
        assertTrue(error("-t", "8", "-s", "100", "--threshold", "p99{skier=1}<1s")
                .contains("a selector is {op=operationId}, not {skier=1}"));
    }
}
