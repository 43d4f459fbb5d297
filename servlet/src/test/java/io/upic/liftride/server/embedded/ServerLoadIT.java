package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.Programs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 6's server load test: two back-to-back runs of {@code wrk -t2 -c256} POSTing post.lua's
 * random valid rides for 60 s each at the embedded server ({@code java -jar liftride-server.jar} in a
 * child JVM on 127.0.0.1, so the heap measured is the server's alone). Slow: only in {@code mvn -pl
 * servlet verify -Pload}. {@code -Dload.seconds=N} and {@code -Dload.connections=N} shorten or
 * narrow it for a trial.
 *
 * <p>What is compared, exactly: bench/load.lua POSTs for {@code load.seconds}, then sends GET
 * /resorts (200, stores nothing) for {@value #TAIL_SECONDS} more seconds until wrk's {@code -d} ends.
 * wrk keeps one request in flight per connection, so every POST is answered before its connection
 * moves on to GETs, and the requests wrk abandons at its deadline are GETs. Then, per run: 0 socket
 * errors (connect, read, write, and timeout = a response slower than {@value #TAIL_SECONDS} s), 0
 * statuses other than 201/200, POSTs sent == 201s wrk saw, and afterwards the server's {@code
 * ridesStored} (GET /statistics) == the 201s of all runs so far, as does its POST endpoint count (no
 * POST reached the server that wrk did not see answered).
 *
 * <p>Heap: after each run, two full GCs ({@code jcmd GC.run}), then {@code jcmd GC.class_histogram}
 * (itself a full GC) sums the bytes of every live object. Run 2 must add at most {@value
 * #HEAP_TOLERANCE_BYTES} bytes to what run 1 left. The store keeps aggregates per (resort, season, day,
 * skier) and (skier, resort, season), about 175 bytes per skier: post.lua's 20,000 skiers on one day
 * must all have rides after run 1 (checked through GET .../day/1/skiers; hundreds of thousands of
 * random rides reach them all), so run 2 adds no key and the expected growth is 0 plus lazy one-offs
 * (0.3 to 1.3 KB measured). Anything kept per request, 16 bytes at least (the smallest object), would
 * add 16 x run 2's rides; the test requires enough rides for that to be at least 4 x the tolerance.
 * {@code GC.heap_info}'s "used" is reported beside it, not asserted: it moves by a few hundred KB
 * between identical states.
 *
 * <p>Wall time: about 2 x (load.seconds + {@value #TAIL_SECONDS} s) plus a few seconds.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES) // a bound for apt-get (if wrk is missing) plus two runs
class ServerLoadIT {
    private static final Path JAR = Path.of("target", "liftride-server.jar");
    private static final Path SCRIPT = Path.of("bench", "load.lua");
    private static final Path OUT = Path.of("target", "load-it");
    private static final int POST_SECONDS = Integer.getInteger("load.seconds", 60);
    private static final int CONNECTIONS = Integer.getInteger("load.connections", 256);
    /** wrk's -d is POST_SECONDS plus this; also wrk's --timeout: the slowest response allowed. */
    private static final int TAIL_SECONDS = 10;

    private static final long HEAP_TOLERANCE_BYTES = 512 * 1024;
    /** post.lua's ride space, set explicitly so that the caller's environment cannot change it. */
    private static final Map<String, String> RIDES =
            Map.of("RESORT", "1", "SEASON", "2022", "DAY", "1", "SKIERS", "20000", "LIFTS", "40");
    /** The smallest retained object; run 2 needs enough rides for one per ride to exceed the tolerance 4x. */
    private static final long SMALLEST_OBJECT_BYTES = 16;

    private static final Pattern URL_LINE =
            Pattern.compile("^LiftRide server listening on (http://127\\.0\\.0\\.1:\\d+/liftride)$", Pattern.MULTILINE);
    private static final Pattern LOADTEST_LINE = Pattern.compile("^LOADTEST (.*)$", Pattern.MULTILINE);
    private static final Pattern WRK_RATE = Pattern.compile("^Requests/sec:\\s+([\\d.]+)", Pattern.MULTILINE);
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");
    private static final Pattern HISTOGRAM_TOTAL =
            Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)\\s*$", Pattern.MULTILINE);

    private static String wrk;
    private static Process server;
    private static String baseUrl;
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @BeforeAll
    static void startServer() throws Exception {
        wrk = Programs.require("wrk", "wrk"); // installs Debian's wrk when missing, or fails saying why
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        Files.createDirectories(OUT);
        Path log = OUT.resolve("server.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        server = new ProcessBuilder(
                        java,
                        "-Xms512m",
                        "-Xmx512m",
                        "-XX:+UseG1GC",
                        "-jar",
                        JAR.toString(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        "0",
                        "--management-port",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (baseUrl == null) {
            Matcher url = URL_LINE.matcher(Files.readString(log));
            if (url.find()) {
                baseUrl = url.group(1);
            } else if (!server.isAlive() || System.nanoTime() > deadline) {
                fail("the server did not print its URL within 60 s (alive: " + server.isAlive() + "):\n"
                        + Files.readString(log));
            } else {
                Thread.sleep(100);
            }
        }
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (server != null) {
            server.toHandle().destroy(); // SIGTERM: the launcher's shutdown hook stops Tomcat
            if (!server.waitFor(20, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void twoRunsStoreExactlyTheRidesWrkSawAndLeaveTheHeapFlat() throws Exception {
        Map<String, String> report = new LinkedHashMap<>();
        report.put(
                "command", String.join(" ", wrkCommand()) + "  (env POST_SECONDS=" + POST_SECONDS + ", " + RIDES + ")");
        report.put(
                "server",
                "java -Xms512m -Xmx512m -XX:+UseG1GC -jar " + JAR + " --host 127.0.0.1 --port 0 (pid " + server.pid()
                        + ")");
        report.put(
                "machine",
                Runtime.getRuntime().availableProcessors()
                        + " CPUs, shared (wrk, the server and anything else running)");

        try {
            loadTwice(report);
        } finally {
            writeReport(report);
        }
    }

    private static void loadTwice(Map<String, String> report) throws Exception {
        long createdSoFar = 0;
        long[] liveBytes = new long[2];
        long[] skiers = new long[2];
        for (int run = 1; run <= 2; run++) {
            String loadBefore = Files.readString(Path.of("/proc/loadavg")).trim();
            Map<String, Long> wrkCounts = runWrk(run, report);
            createdSoFar += wrkCounts.get("created");

            JsonObject stats = statistics();
            long ridesStored = stats.get("ridesStored").getAsLong();
            long serverPosts = postCount(stats);
            skiers[run - 1] = uniqueSkiers();
            report.put(
                    "run " + run + " server",
                    "ridesStored=" + ridesStored + ", POST endpoint count=" + serverPosts
                            + ", 201s seen by wrk so far=" + createdSoFar + ", skiers with rides=" + skiers[run - 1]
                            + "; load average before the run: " + loadBefore);
            assertEquals(
                    createdSoFar,
                    ridesStored,
                    "run " + run + ": the server must store exactly the rides wrk saw answered 201");
            assertEquals(createdSoFar, serverPosts, "run " + run + ": no POST may reach the server unseen by wrk");

            liveBytes[run - 1] = liveBytesAfterFullGc(run);
            report.put(
                    "run " + run + " heap",
                    String.format(
                            Locale.ROOT,
                            "live objects after full GC %,d bytes; GC.heap_info used %,d KB",
                            liveBytes[run - 1],
                            heapUsedKb()));
            if (run == 2) {
                long growth = liveBytes[1] - liveBytes[0];
                long rides2 = wrkCounts.get("created");
                report.put(
                        "heap growth run 1 -> run 2",
                        String.format(
                                Locale.ROOT,
                                "%,d bytes (%.4f bytes per ride of run 2; tolerance %,d bytes)",
                                growth,
                                growth / (double) rides2,
                                HEAP_TOLERANCE_BYTES));
                assertEquals(
                        Long.parseLong(RIDES.get("SKIERS")),
                        skiers[0],
                        "run 1 reached only " + skiers[0]
                                + " skiers: run 2 added aggregate keys, which the heap comparison would count as growth; run longer");
                assertTrue(
                        rides2 * SMALLEST_OBJECT_BYTES >= 4 * HEAP_TOLERANCE_BYTES,
                        "run 2 stored only " + rides2
                                + " rides: too few for a per-request leak to stand out against the tolerance");
                assertTrue(
                        growth <= HEAP_TOLERANCE_BYTES,
                        "the live heap grew by " + growth + " bytes between two identical runs " + "(after run 1: "
                                + liveBytes[0] + ", after run 2: " + liveBytes[1] + "); see "
                                + OUT.resolve("histogram-run-2.txt"));
            }
        }
    }

    private static List<String> wrkCommand() {
        return List.of(
                wrk,
                "-t2",
                "-c" + CONNECTIONS,
                "-d" + (POST_SECONDS + TAIL_SECONDS) + "s",
                "--timeout",
                TAIL_SECONDS + "s",
                "-s",
                SCRIPT.toAbsolutePath().toString(),
                baseUrl);
    }

    /** One wrk run; asserts its own counts and returns the LOADTEST line's numbers. */
    private static Map<String, Long> runWrk(int run, Map<String, String> report) throws Exception {
        Path output = OUT.resolve("wrk-run-" + run + ".txt");
        ProcessBuilder builder =
                new ProcessBuilder(wrkCommand()).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(RIDES);
        builder.environment().put("POST_SECONDS", Integer.toString(POST_SECONDS));
        Process process = builder.start();
        try {
            if (!process.waitFor(POST_SECONDS + TAIL_SECONDS + 60, TimeUnit.SECONDS)) {
                fail("wrk run " + run + " did not end within " + (POST_SECONDS + TAIL_SECONDS + 60) + " s");
            }
        } finally {
            process.destroyForcibly();
        }
        String text = Files.readString(output);
        assertEquals(0, process.exitValue(), "wrk failed:\n" + text);
        Matcher line = LOADTEST_LINE.matcher(text);
        assertTrue(line.find(), "no LOADTEST line from " + SCRIPT + ":\n" + text);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String pair : line.group(1).trim().split("\\s+")) {
            String[] keyValue = pair.split("=", 2);
            counts.put(keyValue[0], (long) Double.parseDouble(keyValue[1]));
        }
        Matcher rate = WRK_RATE.matcher(text);
        long created = counts.get("created");
        report.put(
                "run " + run + " wrk",
                String.format(
                        Locale.ROOT,
                        "%,d POSTs sent, %,d answered 201 = %,.0f POST/s over %d s; then %,d GETs (%,d answered before wrk stopped);"
                                + " wrk Requests/sec (POSTs + GET tail) %s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms;"
                                + " errors connect %d read %d write %d timeout %d, status>399 %d, other statuses %d",
                        counts.get("posts"),
                        created,
                        created / (double) POST_SECONDS,
                        POST_SECONDS,
                        counts.get("gets"),
                        counts.get("ok"),
                        rate.find() ? rate.group(1) : "?",
                        counts.get("p50_us") / 1000.0,
                        counts.get("p99_us") / 1000.0,
                        counts.get("max_us") / 1000.0,
                        counts.get("connect"),
                        counts.get("read"),
                        counts.get("write"),
                        counts.get("timeout"),
                        counts.get("status"),
                        counts.get("other")));

        String where = "run " + run + " (" + output + ")";
        for (String error : List.of("connect", "read", "write", "timeout")) {
            assertEquals(0L, counts.get(error), where + ": socket errors (" + error + ")");
        }
        assertEquals(0L, counts.get("status"), where + ": non-2xx responses");
        assertEquals(0L, counts.get("other"), where + ": responses other than 201 (POST) and 200 (GET)");
        assertTrue(created > 0, where + ": no ride was stored");
        assertEquals(
                counts.get("posts"),
                created,
                where + ": every POST sent must have been answered 201 before wrk" + " stopped; more than "
                        + TAIL_SECONDS + " s for a response, or a response lost");
        return counts;
    }

    private static JsonObject statistics() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/statistics"))
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JsonParser.parseString(response.body()).getAsJsonObject();
    }

    /** How many skiers have rides on post.lua's resort, season and day: the store's aggregate keys. */
    private static long uniqueSkiers() throws IOException, InterruptedException {
        String path = "/resorts/" + RIDES.get("RESORT") + "/seasons/" + RIDES.get("SEASON") + "/day/" + RIDES.get("DAY")
                + "/skiers";
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JsonParser.parseString(response.body())
                .getAsJsonObject()
                .get("numSkiers")
                .getAsLong();
    }

    private static long postCount(JsonObject stats) {
        for (JsonElement endpoint : stats.getAsJsonArray("endpointStats")) {
            JsonObject stat = endpoint.getAsJsonObject();
            if (stat.get("operation").getAsString().equals("POST")) {
                return stat.get("count").getAsLong();
            }
        }
        return 0;
    }

    /** Two full GCs, then the class histogram (a full GC itself): the bytes of every live object. */
    private static long liveBytesAfterFullGc(int run) throws Exception {
        jcmd("GC.run");
        jcmd("GC.run");
        String histogram = jcmd("GC.class_histogram");
        Files.writeString(OUT.resolve("histogram-run-" + run + ".txt"), histogram);
        Matcher total = HISTOGRAM_TOTAL.matcher(histogram);
        assertTrue(total.find(), "no Total line in the class histogram:\n" + histogram);
        return Long.parseLong(total.group(2));
    }

    private static long heapUsedKb() throws Exception {
        String info = jcmd("GC.heap_info");
        Matcher used = HEAP_USED.matcher(info);
        assertTrue(used.find(), "no heap line in GC.heap_info:\n" + info);
        return Long.parseLong(used.group(1));
    }

    private static String jcmd(String command) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Programs.Result result = Programs.exec(Duration.ofSeconds(60), jcmd, Long.toString(server.pid()), command);
        assertEquals(0, result.exitCode(), "jcmd " + command + " failed:\n" + result.output());
        return result.output();
    }

    private static void writeReport(Map<String, String> report) throws IOException {
        List<String> lines = new ArrayList<>();
        report.forEach((key, value) -> lines.add(key + ": " + value));
        Files.write(OUT.resolve("summary.txt"), lines);
        lines.forEach(System.out::println);
    }
}
