package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.api.ResortsApi;
import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.api.StatisticsApi;
import io.upic.liftride.sdk.model.APIStats;
import io.upic.liftride.sdk.model.EndpointStat;
import io.upic.liftride.sdk.model.LiftRide;
import io.upic.liftride.sdk.model.ResortSkiers;
import io.upic.liftride.sdk.model.SeasonBody;
import io.upic.liftride.sdk.model.SeasonVertical;
import io.upic.liftride.sdk.model.SkierVertical;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The generated SDK against the embedded server: what the load client does, end to end. The server
 * is this class's alone, so ridesStored must equal exactly the rides posted here.
 */
@Timeout(120)
class SdkRoundTripIT {
    private static EmbeddedServer server;
    private static SkiersApi skiers;
    private static ResortsApi resorts;
    private static StatisticsApi statistics;

    @BeforeAll
    static void start() {
        server = EmbeddedServer.start("127.0.0.1", 0);
        ApiClient client = new ApiClient();
        client.setBasePath(server.baseUrl());
        client.setHttpClient(client.getHttpClient()
                .newBuilder()
                .connectTimeout(5, TimeUnit.SECONDS)
                .readTimeout(10, TimeUnit.SECONDS)
                .build());
        skiers = new SkiersApi(client);
        resorts = new ResortsApi(client);
        statistics = new StatisticsApi(client);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static LiftRide ride(int liftId, int time, Integer waitTime) {
        LiftRide ride = new LiftRide();
        ride.setLiftID(liftId);
        ride.setTime(time);
        ride.setWaitTime(waitTime);
        return ride;
    }

    @Test
    void postsRidesAndReadsBackExactVerticalsCountsAndStatistics() throws ApiException {
        Random random = new Random(42);
        Map<Integer, Long> expectedDay = new HashMap<>();
        long expectedSeason2022OfSkier1 = 0;
        int posted = 0;
        for (int i = 0; i < 2_000; i++) {
            int skier = 1 + random.nextInt(50);
            int liftId = 1 + random.nextInt(60);
            skiers.writeNewLiftRide(
                    ride(liftId, 1 + random.nextInt(420), random.nextBoolean() ? random.nextInt(11) : null),
                    1,
                    "2022",
                    "1",
                    skier,
                    null);
            posted++;
            expectedDay.merge(skier, liftId * 10L, Long::sum);
            if (skier == 1) {
                expectedSeason2022OfSkier1 += liftId * 10L;
            }
        }
        skiers.writeNewLiftRide(ride(10, 100, null), 1, "2021", "200", 1, null);
        skiers.writeNewLiftRide(ride(20, 100, 0), 2, "2022", "2", 1, null);
        posted += 2;

        for (Map.Entry<Integer, Long> skier : expectedDay.entrySet()) {
            assertEquals(skier.getValue().intValue(), skiers.getSkierDayVertical(1, "2022", "1", skier.getKey()));
        }

        SkierVertical resort1 = skiers.getSkierResortTotals(1, List.of(1), null);
        assertEquals(
                List.of("2021", "2022"),
                resort1.getResorts().stream().map(SeasonVertical::getSeasonID).toList());
        assertEquals(100L, resort1.getResorts().get(0).getTotalVert());
        assertEquals(expectedSeason2022OfSkier1, resort1.getResorts().get(1).getTotalVert());
        SkierVertical bothResorts2022 = skiers.getSkierResortTotals(1, List.of(1, 2), List.of("2022"));
        assertEquals(
                expectedSeason2022OfSkier1 + 200,
                bothResorts2022.getResorts().get(0).getTotalVert());

        ResortSkiers unique = resorts.getResortSkiersDay(1, 2022, 1);
        assertEquals("Mission Ridge", unique.getTime());
        assertEquals(expectedDay.size(), unique.getNumSkiers());
        assertEquals(List.of("2021", "2022"), resorts.getResortSeasons(1).getSeasons());
        assertEquals(10, resorts.getResorts().getResorts().size());

        SeasonBody season = new SeasonBody();
        season.setYear("2025");
        resorts.addSeason(season, 3);
        assertEquals(List.of("2025"), resorts.getResortSeasons(3).getSeasons());

        APIStats stats = statistics.getPerformanceStats();
        assertEquals(posted, stats.getRidesStored());
        EndpointStat post = stats.getEndpointStats().stream()
                .filter(e -> e.getOperation().equals("POST") && e.getURL().startsWith("/skiers/"))
                .findFirst()
                .orElseThrow();
        assertTrue(post.getCount() >= posted, "count includes refused POSTs of the other test: " + post.getCount());
        assertTrue(post.getMaxMicros() >= post.getMeanMicros() && post.getMeanMicros() > 0);
    }

    @Test
    void surfacesRejectionsAsApiExceptionsWithTheStatusAndMessage() {
        ApiException badLift = assertThrows(
                ApiException.class, () -> skiers.writeNewLiftRide(ride(61, 1, null), 1, "2022", "1", 1, null));
        assertEquals(400, badLift.getCode());
        assertEquals("{\"message\":\"liftID must be an integer in 1..60, got 61\"}", badLift.getResponseBody());
        ApiException missingTime = assertThrows(
                ApiException.class, () -> skiers.writeNewLiftRide(ride(1, 0, null), 1, "2022", "1", 1, null));
        assertEquals(400, missingTime.getCode());
        ApiException badDay = assertThrows(
                ApiException.class, () -> skiers.writeNewLiftRide(ride(1, 1, null), 1, "2022", "400", 1, null));
        assertEquals(400, badDay.getCode());
        ApiException noData =
                assertThrows(ApiException.class, () -> skiers.getSkierDayVertical(1, "2022", "9", 99_999));
        assertEquals(404, noData.getCode());
        ApiException noResort = assertThrows(ApiException.class, () -> resorts.getResortSeasons(5_000));
        assertEquals(404, noResort.getCode());
    }
}
