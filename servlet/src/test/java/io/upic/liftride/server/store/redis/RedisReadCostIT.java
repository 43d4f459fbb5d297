package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.LimitReachedException;
import io.upic.liftride.server.validation.Rules;
import io.upic.liftride.testkit.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With 3,000 seasons in a resort, a GET costs a fixed number of Redis round trips (counted by the
 * store: every call and every pipeline goes through one method that counts it). It also prints the
 * median time of a vertical GET and of {@code /statistics} over loopback HTTP, for data/redis-bench.md
 * (a figure to publish, not a timing assertion).
 */
@Timeout(60)
class RedisReadCostIT {
    private static final int SEASONS = 3_000;
    private static final LiftRide RIDE = new LiftRide(10, 100, 0);

    @Test
    void aGetCostsAFixedNumberOfRoundTripsWhateverTheNumberOfSeasons() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RedisRideStore store =
                        RedisRideStore.standalone("127.0.0.1", redis.port(), RedisRideStore.Settings.DEFAULTS)) {
            List<String> sadd = new ArrayList<>(List.of("SADD", "lr:seasons:1"));
            for (int season = 1; season <= SEASONS; season++) {
                sadd.add(Integer.toString(season));
            }
            redis.cli(sadd.toArray(String[]::new));
            for (int season : List.of(7, 1500, 3000)) {
                store.addRide(new SkierDay(1, season, 1, 42), RIDE, null);
            }
            store.addRide(new SkierDay(2, 7, 1, 42), RIDE, null);

            long before = store.roundTrips();
            List<SeasonVertical> verticals = store.seasonVerticals(new SkierVerticalQuery(42, Set.of(1, 2), Set.of()));
            assertEquals(
                    List.of(new SeasonVertical(7, 200), new SeasonVertical(1500, 100), new SeasonVertical(3000, 100)),
                    verticals);
            assertEquals(2, store.roundTrips() - before, "the resorts' seasons, then every season's total");
            before = store.roundTrips();
            assertEquals(4, store.ridesStored());
            assertEquals(1, store.roundTrips() - before, "the running total");
            before = store.roundTrips();
            store.seasonVerticals(new SkierVerticalQuery(42, Set.of(1), Set.of(7, 1500)));
            assertEquals(1, store.roundTrips() - before, "the seasons asked for: every total at once");
            printHttpMedians(redis);
        }
    }

    /**
     * The contract's bound for the costliest GET: a skier's vertical over the most resorts a query may
     * name (50), each with as many seasons as the default limit allows (100), is 2 round trips, 50
     * SMEMBERS and 5,000 HGETs (counted by Redis's own INFO commandstats), and what Redis sends back.
     */
    @Test
    void aVerticalOverFiftyFullResortsCostsTwoRoundTripsAndOneHgetPerSeason() {
        try (RedisServer redis = RedisServer.start();
                RedisRideStore store =
                        RedisRideStore.standalone("127.0.0.1", redis.port(), RedisRideStore.Settings.DEFAULTS)) {
            int seasons = store.limits().count(Limit.SEASONS_PER_RESORT);
            Set<Integer> resorts = new TreeSet<>();
            for (int resort = 1; resort <= Rules.MAX_QUERY_VALUES; resort++) {
                resorts.add(resort);
                store.addRide(new SkierDay(resort, 2000, 1, 42), RIDE, null);
                for (int season = 2001; season < 2000 + seasons; season++) {
                    store.addSeason(resort, season);
                }
            }
            assertThrows(LimitReachedException.class, () -> store.addSeason(1, 1999), "the season limit holds");
            redis.cli("CONFIG", "RESETSTAT");
            long before = store.roundTrips();
            assertEquals(
                    List.of(new SeasonVertical(2000, 100L * resorts.size())),
                    store.seasonVerticals(new SkierVerticalQuery(42, resorts, Set.of())));
            assertEquals(2, store.roundTrips() - before);
            String commands = redis.cli("INFO", "commandstats");
            assertEquals(resorts.size(), calls(commands, "smembers"));
            assertEquals(resorts.size() * seasons, calls(commands, "hget"));
            long sent = stat(redis.cli("INFO", "stats"), "total_net_output_bytes");
            System.out.printf(
                    "RedisReadCostIT: a vertical over %d resorts x %d seasons: 2 round trips, %d HGETs, %d bytes"
                            + " from Redis%n",
                    resorts.size(), seasons, resorts.size() * seasons, sent);
            assertTrue(sent < 128 * 1024, sent + " bytes from Redis");
        }
    }

    /** The calls of {@code command} in INFO commandstats, 0 if none. */
    private static long calls(String info, String command) {
        for (String line : info.split("\\r?\\n")) {
            if (line.startsWith("cmdstat_" + command + ":calls=")) {
                return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
            }
        }
        return 0;
    }

    private static long stat(String info, String name) {
        for (String line : info.split("\\r?\\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalStateException(name + " missing from INFO");
    }

    private static void printHttpMedians(RedisServer redis) throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, StoreSpec.parse(redis.url()))) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (String path : List.of("/skiers/42/vertical?resort=1", "/statistics")) {
                long[] nanos = new long[51];
                for (int i = -10; i < nanos.length; i++) { // 10 warm-up calls
                    long start = System.nanoTime();
                    HttpResponse<String> response = client.send(
                            HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    long took = System.nanoTime() - start;
                    assertEquals(200, response.statusCode(), path + ": " + response.body());
                    if (i >= 0) {
                        nanos[i] = took;
                    }
                }
                Arrays.sort(nanos);
                System.out.printf(
                        "RedisReadCostIT: %s with %d seasons: median %.2f ms (min %.2f, max %.2f) over %d GETs%n",
                        path,
                        SEASONS,
                        nanos[nanos.length / 2] / 1e6,
                        nanos[0] / 1e6,
                        nanos[nanos.length - 1] / 1e6,
                        nanos.length);
                assertTrue(TimeUnit.NANOSECONDS.toSeconds(nanos[nanos.length / 2]) < 5, "answers at all");
            }
        }
    }
}
