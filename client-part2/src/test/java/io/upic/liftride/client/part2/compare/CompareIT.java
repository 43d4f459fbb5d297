package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.EmbeddedTarget;
import io.upic.liftride.client.part2.Main;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare} on real runs: client-part2 runs the same small plan against one embedded server (in this JVM,
 * on a free port, with a test-only {@link DelayFilter} in front of the servlets): three runs as baseline and three
 * as candidate, interleaved, which is no regression within the band; and one run, then one with every POST held
 * 3 ms, which is one (exit 3, naming the metrics).
 */
class CompareIT {

    /**
     * The band for this 2-core machine shared with five other builds (load average 30 to 50): between two
     * consecutive single runs of this plan the worst changes seen were throughput -24%, mean +27%, p50 +39%, p90
     * +89%, p99 +139%, p99.9 +144%, max +180% (docs/reports.md). The median of three runs per side damps that; the
     * tails of a 2-second run hang on one GC pause or one descheduled thread, so p99.9 and max are not gated here.
     */
    static final String BAND = "50%,p99=100%,p99.9=off,max=off";

    private static final String[] PLAN = {"-t", "8", "-s", "2000", "--baseline", "0", "--quiet"};
    private static final long DELAY_MICROS = 3_000;

    private static final DelayFilter DELAY = new DelayFilter();
    private static EmbeddedServer server;

    @TempDir
    static Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void startServerAndWarmUp() throws Exception {
        server = EmbeddedServer.start("127.0.0.1", 0, context -> {
            FilterDef def = new FilterDef();
            def.setFilterName("delay");
            def.setFilter(DELAY);
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName("delay");
            map.addURLPattern("/*");
            context.addFilterMap(map);
        });
        // a first run warms both JIT compilers, so that the runs compared below start alike
        assertEquals(0, new CompareIT().client("warm-up", 2));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private Main main() {
        return new Main(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                EmbeddedTarget::start,
                false,
                work);
    }

    /** Runs {@link #PLAN} with {@code -m meanRuns} and {@code extra} against the server into {@code outDir}. */
    private int client(String outDir, int meanRuns, String... extra) {
        List<String> args = new ArrayList<>(List.of(PLAN));
        args.addAll(List.of("-m", String.valueOf(meanRuns), "-i", server.baseUrl(), "--out", outDir));
        args.addAll(List.of(extra));
        return main().run(args.toArray(String[]::new));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8) + "\n--- stderr ---\n" + err.toString(StandardCharsets.UTF_8);
    }

    /** Compares with {@link #BAND}, writing {@code name.md}; the exit code. */
    private int compare(String baseline, String candidate, String name) {
        out.reset();
        err.reset();
        int exit = main().run(new String[] {
            "compare", baseline, candidate, "--max-regression", BAND, "--markdown", name + ".md"
        });
        System.out.println(printed()); // the table, in the test's report: the noise seen on this machine
        return exit;
    }

    @Test
    // six client runs: a hang guard, wide enough for a busy 2-core machine
    @Timeout(value = 150, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theSamePlanTwiceAgainstOneServerIsNoRegression() throws Exception {
        DELAY.set(0);
        for (int i = 1; i <= 3; i++) {
            assertEquals(0, client("base" + i, 5), printed());
            assertEquals(0, client("cand" + i, 5), printed());
        }
        int exit = compare("base1/t8,base2/t8,base3/t8", "cand1,cand2,cand3", "same");
        assertEquals(0, exit, printed());
        assertTrue(printed().contains("Baseline:  3 runs ("), printed());
        String result = printed()
                .lines()
                .filter(l -> l.startsWith("Result: "))
                .findFirst()
                .orElse("");
        assertTrue(result.startsWith("Result: no regression past the band") && result.endsWith("(exit 0)"), result);
        assertTrue(Files.readString(work.resolve("same.md")).contains("**No regression** past the band."));
    }

    @Test
    @Timeout(value = 55, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aServerSlowedOnPurposeIsARegressionNamingTheMetric() throws Exception {
        DELAY.set(0);
        assertEquals(0, client("fast", 2), printed());
        DELAY.set(DELAY_MICROS);
        try {
            assertEquals(0, client("slow", 2), printed());
        } finally {
            DELAY.set(0);
        }
        RunRecord slow = RunRecord.read(work.resolve("slow/t8")).get(0);
        assertTrue(slow.summary().latencyMs().p50() >= DELAY_MICROS / 1e3, "the delay was applied");

        int exit = compare("fast/t8", "slow/t8/summary.json", "slow");
        assertEquals(3, exit, printed());
        String result = printed()
                .lines()
                .filter(l -> l.startsWith("Result: "))
                .findFirst()
                .orElseThrow();
        assertTrue(result.startsWith("Result: REGRESSION: "), result);
        assertTrue(result.contains(" p50 +"), "names the median: " + result);
        assertTrue(result.contains(" mean +"), "names the mean: " + result);
        assertTrue(result.endsWith("(exit 3)"), result);
        assertTrue(Files.readString(work.resolve("slow.md")).contains("| p50 (ms) |"), "markdown table");
    }

    @Test
    @Timeout(value = 55, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void openModelRunsAreComparedOnTheirLatencyFromTheIntendedSendToo() throws Exception {
        DELAY.set(0);
        assertEquals(0, client("open-a", 2, "--rate", "2000"), printed());
        assertEquals(0, client("open-b", 2, "--rate", "2000"), printed());
        RunRecord a = RunRecord.read(work.resolve("open-a/t8")).get(0);
        assertEquals(2000.0, a.summary().offeredRate());
        assertTrue(a.summary().phases().get(1).latencyFromIntendedMs().p99() > 0, "per phase");

        out.reset();
        err.reset();
        // this test is about the rows, the two above about the verdicts: the tails of two 2 s open-model runs can
        // differ past any band (one GC pause made intended.p99 8.3 ms against 0.7), so 3 is as good as 0 here
        int exit = main().run(new String[] {"compare", "open-a", "open-b", "--max-regression", "1000%"});
        assertTrue(exit == 0 || exit == 3, "compared (not refused): exit " + exit + "\n" + printed());
        String o = printed();
        assertTrue(o.contains("--rate 2000"), o);
        for (String m : List.of("intended.mean", "intended.p50", "intended.p99", "intended.p99.9", "intended.max")) {
            long rows = o.lines()
                    .filter(l -> l.matches("  " + java.util.regex.Pattern.quote(m) + " \\(ms\\) .*"))
                    .filter(l -> !l.contains(" - "))
                    .count();
            assertEquals(4, rows, m + " measured on both sides in the whole run and each of 3 phases:\n" + o);
        }

        out.reset();
        err.reset();
        assertEquals(2, main().run(new String[] {"compare", "open-a", "warm-up"}), printed());
        assertTrue(
                printed().contains("refusing to compare unlike plans: --rate 2000 vs none (closed model) (baseline"),
                printed());
    }
}
