package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.LoadEngine;
import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.RideValues;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.report.SummarySchema;
import io.upic.liftride.client.transport.Transport;
import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.api.ResortsApi;
import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.model.SeasonVertical;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * A mix of operations against the embedded server, through each transport: every operation is sent and counted, the
 * GETs read rides the run stored (200, never the 404 of a skier without rides), the GETs for unknown data get their
 * expected 404, and the server stored exactly the successful POSTs. The run reads no body; after it, each GET's body
 * is read back through the SDK and must equal what the run's successful POSTs stored.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixIT {

    private static final RideValues RIDE = new RideValues(3, 2024, 17, 40);
    private static final LoadPlan PLAN = PhasePlan.fall2021().forRun(8, 400, 4);

    private static RunResult run(String baseUrl, Transport transport, Mix mix) {
        return run(baseUrl, transport, mix, new ConcurrentHashMap<>());
    }

    /** As the other, adding each successful POST's vertical (liftID x 10, the contract's) to {@code verticals}. */
    private static RunResult run(String baseUrl, Transport transport, Mix mix, Map<Integer, Long> verticals) {
        try (RideSenderFactory opened = transport.open(new HttpSettings(baseUrl, 2_000, 5_000, 64));
                RideSenderFactory senders = recording(opened, verticals)) {
            return LoadEngine.builder(PLAN, senders)
                    .ride(RIDE)
                    .mix(mix)
                    .retryPolicy(new RetryPolicy(6, 1, 10))
                    .seed(42L)
                    .build()
                    .run();
        }
    }

    /** {@code factory}'s senders, adding the vertical of each POST answered 201 to its skier's in {@code into}. */
    private static RideSenderFactory recording(RideSenderFactory factory, Map<Integer, Long> into) {
        return new RideSenderFactory() {
            @Override
            public RideSender create() {
                RideSender s = factory.create();
                return new RideSender() {
                    @Override
                    public int send(
                            int resortId,
                            int seasonId,
                            int dayId,
                            int skierId,
                            int liftId,
                            int minute,
                            int waitTime,
                            String rideKey)
                            throws IOException {
                        int code = s.send(resortId, seasonId, dayId, skierId, liftId, minute, waitTime, rideKey);
                        if (code == 201) {
                            into.merge(skierId, liftId * 10L, Long::sum);
                        }
                        return code;
                    }

                    @Override
                    public int get(Operation op, int resortId, int seasonId, int dayId, int skierId)
                            throws IOException {
                        return s.get(op, resortId, seasonId, dayId, skierId);
                    }

                    @Override
                    public long retryAfterMillis() {
                        return s.retryAfterMillis();
                    }

                    @Override
                    public void close() {
                        s.close();
                    }
                };
            }

            @Override
            public void close() {}
        };
    }

    /** The bodies of the three GETs for the run's day equal what the successful POSTs stored ({@code verticals}). */
    private static void assertGetsReturnWhatWasStored(String baseUrl, Map<Integer, Long> verticals)
            throws ApiException {
        ApiClient client = new ApiClient().setBasePath(baseUrl);
        SkiersApi skiers = new SkiersApi(client);
        String season = Integer.toString(RIDE.seasonId());
        assertEquals(
                verticals.size(),
                new ResortsApi(client)
                        .getResortSkiersDay(RIDE.resortId(), RIDE.seasonId(), RIDE.dayId())
                        .getNumSkiers());
        for (Map.Entry<Integer, Long> e : verticals.entrySet()) {
            int skier = e.getKey();
            long vertical = e.getValue();
            assertEquals(
                    vertical,
                    skiers.getSkierDayVertical(RIDE.resortId(), season, Integer.toString(RIDE.dayId()), skier)
                            .longValue(),
                    "day vertical of skier " + skier);
            List<SeasonVertical> totals = skiers.getSkierResortTotals(skier, List.of(RIDE.resortId()), List.of(season))
                    .getResorts();
            assertEquals(1, totals.size(), totals.toString());
            assertEquals(season, totals.get(0).getSeasonID());
            assertEquals(vertical, totals.get(0).getTotalVert(), "season total of skier " + skier);
        }
    }

    private static long ridesStored(String baseUrl) {
        return ServerProbe.statistics(baseUrl, 2_000, 5_000).ridesStored().orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void everyOperationIsSentItsGetsReadStoredRidesAndTheServerStoredTheSuccessfulPosts(Transport transport)
            throws Exception {
        Mix mix = Mix.parse("writeNewLiftRide=50,getSkierDayVertical=20,getResortSkiersDay=15,getSkierResortTotals=15");
        try (LocalServer server = EmbeddedTarget.start()) {
            long before = ridesStored(server.baseUrl());
            Map<Integer, Long> verticals = new ConcurrentHashMap<>();
            RunResult r = run(server.baseUrl(), transport, mix, verticals);
            long delta = ridesStored(server.baseUrl()) - before;

            assertTrue(r.ok(), r.toString());
            assertGetsReturnWhatWasStored(server.baseUrl(), verticals);
            Map<Operation, OperationStats> ops = r.operations();
            assertEquals(Set.of(Operation.values()), ops.keySet());
            assertEquals(
                    PLAN.totalRequests(),
                    ops.values().stream().mapToLong(OperationStats::requests).sum());
            for (OperationStats s : ops.values()) {
                assertEquals(s.requests(), s.successful(), s.toString()); // a GET of a skier without rides is a 404
                assertEquals(0, s.notFound(), s.toString());
                assertTrue(s.attempts() >= s.requests() && s.meanLatencyNanos() > 0, s.toString());
            }
            long writes = ops.get(Operation.WRITE_NEW_LIFT_RIDE).successful();
            assertEquals(writes, r.successfulWrites());
            assertEquals(writes, delta, "the server stored exactly the successful POSTs");
            // each worker's first request writes, then half of its draws are GETs
            assertTrue(
                    writes > PLAN.totalRequests() * 45 / 100 && writes < PLAN.totalRequests() * 60 / 100,
                    ops.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void getsForUnknownDataGetTheirExpected404AndStoreNothing(Transport transport) throws Exception {
        Mix mix = Mix.parse("writeNewLiftRide=40,getSkierDayVertical=20,getResortSkiersDay=20,getSkierResortTotals=20")
                .withUnknownPercent(25);
        try (LocalServer server = EmbeddedTarget.start()) {
            long before = ridesStored(server.baseUrl());
            RunResult r = run(server.baseUrl(), transport, mix);
            long delta = ridesStored(server.baseUrl()) - before;

            assertTrue(r.ok(), r.toString());
            for (Operation op : Set.of(
                    Operation.GET_SKIER_DAY_VERTICAL,
                    Operation.GET_RESORT_SKIERS_DAY,
                    Operation.GET_SKIER_RESORT_TOTALS)) {
                OperationStats s = r.operations().get(op);
                assertEquals(s.requests(), s.successful(), s.toString());
                double share = s.notFound() / (double) s.requests();
                assertTrue(share > 0.15 && share < 0.35, s.toString()); // 25% of a few hundred, from a fixed seed
            }
            assertEquals(0, r.operations().get(Operation.WRITE_NEW_LIFT_RIDE).notFound());
            assertEquals(r.successfulWrites(), delta);
        }
    }

    @Test
    void theConsoleAndTheSummaryHaveARowPerOperationAndThresholdsJudgeOne(@TempDir Path work) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path file = work.resolve("summary.json");
        int exit = new Main(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        EmbeddedTarget::start,
                        false)
                .run(new String[] {
                    "-t",
                    "4",
                    "-s",
                    "100",
                    "-m",
                    "2",
                    "--baseline",
                    "0",
                    "--quiet",
                    "--seed",
                    "7",
                    "--transport",
                    "raw",
                    "--mix",
                    "writeNewLiftRide=80,getSkierDayVertical=20",
                    "--mix-unknown",
                    "10%",
                    "--summary-json",
                    file.toString(),
                    "--threshold",
                    "failed{op=getSkierDayVertical}==0",
                    "--threshold",
                    "mean{op=getSkierDayVertical}<1ns",
                    "--threshold",
                    "mean{op=getSkierDayVertical}<10s"
                });
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(3, exit, printed + err.toString(StandardCharsets.UTF_8)); // the 1 ns mean fails on purpose
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        JsonNode ops = t.get("operations");
        assertEquals(2, ops.size(), json);
        JsonNode post = ops.get(0);
        JsonNode get = ops.get(1);
        assertEquals("writeNewLiftRide", post.get("operation").asString());
        assertEquals(80, post.get("weight").asInt());
        assertEquals("getSkierDayVertical", get.get("operation").asString());
        assertEquals(
                t.get("successful").asLong(),
                post.get("successful").asLong() + get.get("successful").asLong());
        assertEquals(0, get.get("failed").asLong(), json);
        assertTrue(get.get("notFound").asLong() > 0
                && get.get("notFound").asLong() < get.get("requests").asLong());
        assertEquals(
                post.get("successful").asLong(), t.get("server").get("delta").asLong(), json);
        assertTrue(t.get("server").get("reconciled").asBoolean(), json);
        assertTrue(get.get("latencyMs").get("mean").asDouble() > 0, json);
        assertTrue(
                printed.contains(String.format(
                        Locale.US,
                        "  op getSkierDayVertical  %,d successful (%,d expected 404), 0 failed;",
                        get.get("successful").asLong(),
                        get.get("notFound").asLong())),
                printed);
        assertTrue(printed.contains("  PASS  failed{op=getSkierDayVertical}==0  (measured 0 requests)"), printed);
        assertTrue(printed.contains("  FAIL  mean{op=getSkierDayVertical}<1ns  (measured "), printed);
        assertTrue(printed.contains("  PASS  mean{op=getSkierDayVertical}<10s"), printed);
    }
}
