package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RideStore} must do, run against each implementation: the in-memory store
 * (InMemoryRideStoreTest), one real redis-server and a 3-master Redis Cluster (RedisRideStoreIT,
 * RedisClusterRideStoreIT). A subclass supplies a fresh store, empty but for resorts 1..10.
 */
public abstract class RideStoreContract {
    protected RideStore store;

    /** A new store holding only the seed resorts; closed after each test. */
    protected abstract RideStore newStore();

    /** Whether the store bounds resort days and skier days (a Redis Cluster bounds resorts and seasons only). */
    protected boolean limitsDays() {
        return true;
    }

    /** Whether the store keeps each client's budget of new entries (a Redis Cluster does not). */
    protected boolean budgetsClients() {
        return limitsDays();
    }

    /**
     * Rides with junk keys in the flood test: past the 190,000 keys of 40 characters that a global
     * 32 MiB key store held, oldest forgotten first.
     */
    protected int floodRides() {
        return 250_000;
    }

    /** Rides each of 16 threads posts in the concurrency test. */
    protected int ridesPerThread() {
        return 112_500; // 1.8 million rides in all, the size of ten standard runs
    }

    @BeforeEach
    void openStore() {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private static LiftRide lift(int liftId) {
        return new LiftRide(liftId, 100, LiftRide.NO_WAIT_TIME);
    }

    @Test
    void sumsLiftIdTimesTenIntoTheSkiersDayVertical() {
        SkierDay day = new SkierDay(1, 2022, 1, 7);
        store.addRide(day, lift(21));
        store.addRide(day, lift(3));
        assertEquals(OptionalLong.of(240), store.dayVertical(day));
        assertEquals(2, store.ridesStored());
    }

    @Test
    void keepsDaysSkiersResortsAndSeasonsApart() {
        store.addRide(new SkierDay(1, 2022, 1, 7), lift(10));
        assertEquals(OptionalLong.empty(), store.dayVertical(new SkierDay(1, 2022, 2, 7)));
        assertEquals(OptionalLong.empty(), store.dayVertical(new SkierDay(1, 2022, 1, 8)));
        assertEquals(OptionalLong.empty(), store.dayVertical(new SkierDay(2, 2022, 1, 7)));
        assertEquals(OptionalLong.empty(), store.dayVertical(new SkierDay(1, 2021, 1, 7)));
    }

    @Test
    void distinguishesTheLargestIdsInThePackedKeys() {
        SkierDay a = new SkierDay(Integer.MAX_VALUE, 9999, 366, 100_000);
        SkierDay b = new SkierDay(Integer.MAX_VALUE - 1, 9999, 366, 100_000);
        store.addRide(a, lift(60));
        store.addRide(b, lift(1));
        assertEquals(OptionalLong.of(600), store.dayVertical(a));
        assertEquals(OptionalLong.of(10), store.dayVertical(b));
        assertEquals(
                List.of(new SeasonVertical(9999, 600)),
                store.seasonVerticals(new SkierVerticalQuery(100_000, Set.of(Integer.MAX_VALUE), Set.of())));
    }

    @Test
    void totalsSeasonsOverTheRequestedResortsOnly() {
        store.addRide(new SkierDay(1, 2021, 5, 7), lift(1));
        store.addRide(new SkierDay(1, 2022, 1, 7), lift(2));
        store.addRide(new SkierDay(1, 2022, 2, 7), lift(3));
        store.addRide(new SkierDay(2, 2022, 1, 7), lift(4));
        store.addRide(new SkierDay(3, 2022, 1, 7), lift(50));
        store.addRide(new SkierDay(1, 2022, 1, 8), lift(60));

        assertEquals(
                List.of(new SeasonVertical(2021, 10), new SeasonVertical(2022, 50)),
                store.seasonVerticals(new SkierVerticalQuery(7, Set.of(1), Set.of())));
        assertEquals(
                List.of(new SeasonVertical(2021, 10), new SeasonVertical(2022, 90)),
                store.seasonVerticals(new SkierVerticalQuery(7, Set.of(1, 2), Set.of())));
        assertEquals(
                List.of(new SeasonVertical(2022, 90)),
                store.seasonVerticals(new SkierVerticalQuery(7, Set.of(1, 2), Set.of(2022, 2030))));
        assertTrue(store.seasonVerticals(new SkierVerticalQuery(7, Set.of(4, 999), Set.of()))
                .isEmpty());
    }

    @Test
    void countsUniqueSkiersPerResortSeasonAndDay() {
        store.addRide(new SkierDay(1, 2022, 1, 7), lift(1));
        store.addRide(new SkierDay(1, 2022, 1, 7), lift(1));
        store.addRide(new SkierDay(1, 2022, 1, 8), lift(1));
        store.addRide(new SkierDay(1, 2022, 2, 9), lift(1));
        assertEquals(2, store.uniqueSkiers(new ResortDay(1, 2022, 1)));
        assertEquals(1, store.uniqueSkiers(new ResortDay(1, 2022, 2)));
        assertEquals(0, store.uniqueSkiers(new ResortDay(1, 2022, 3)));
    }

    @Test
    void seedsTenResortsWithoutSeasons() {
        List<Resort> resorts = store.resorts();
        assertEquals(10, resorts.size());
        assertEquals(new Resort(1, "Mission Ridge"), resorts.get(0));
        assertEquals(10, resorts.get(9).id());
        assertTrue(store.seasons(1).isEmpty());
    }

    @Test
    void registersAResortAndItsSeasonWhenItGetsItsFirstRide() {
        assertTrue(store.resort(42).isEmpty());
        store.addRide(new SkierDay(42, 2023, 1, 1), lift(1));
        assertEquals(new Resort(42, "Resort 42"), store.resort(42).orElseThrow());
        assertEquals(List.of(2023), store.seasons(42));
        assertEquals(11, store.resorts().size());
    }

    @Test
    void addsSeasonsOnlyToExistingResortsAndListsThemInOrder() {
        assertTrue(store.addSeason(1, 2024));
        assertTrue(store.addSeason(1, 2019));
        assertTrue(store.addSeason(1, 2024));
        assertEquals(List.of(2019, 2024), store.seasons(1));
        assertFalse(store.addSeason(99, 2024));
        assertTrue(store.resort(99).isEmpty());
    }

    @Test
    void keepsExactCountsWhenManyThreadsPostAtOnce() throws InterruptedException {
        int threads = 16;
        int ridesPerThread = ridesPerThread();
        int skiers = Math.min(20_000, ridesPerThread * 4);
        AtomicLongArray expected = new AtomicLongArray(skiers + 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < ridesPerThread; i++) {
                    int skier = 1 + random.nextInt(skiers);
                    int liftId = 1 + random.nextInt(60);
                    store.addRide(new SkierDay(1, 2022, 1, skier), lift(liftId));
                    expected.addAndGet(skier, liftId * 10L);
                }
            });
        }
        start.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));

        assertEquals((long) threads * ridesPerThread, store.ridesStored());
        int unique = 0;
        long total = 0;
        long seasonTotal = 0;
        for (int skier = 1; skier <= skiers; skier++) {
            long vertical = expected.get(skier);
            SkierDay day = new SkierDay(1, 2022, 1, skier);
            assertEquals(vertical == 0 ? OptionalLong.empty() : OptionalLong.of(vertical), store.dayVertical(day));
            if (vertical > 0) {
                unique++;
                total += vertical;
                seasonTotal += store.seasonVerticals(new SkierVerticalQuery(skier, Set.of(1), Set.of(2022)))
                        .get(0)
                        .totalVertical();
            }
        }
        assertEquals(unique, store.uniqueSkiers(new ResortDay(1, 2022, 1)));
        assertEquals(total, seasonTotal);
    }

    @Test
    void createsOneResortWhenManyThreadsRegisterItAtOnce() throws InterruptedException {
        // 50 seasons: 100 is the default limit, and 8 requests racing for the last place with one that has not
        // created the season yet may be refused (the in-memory store's Javadoc); this test is about the resort
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            int skier = t + 1;
            pool.execute(() -> {
                for (int season = 2000; season < 2050; season++) {
                    store.addRide(new SkierDay(77, season, 1, skier), lift(1));
                }
            });
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(11, store.resorts().size());
        assertEquals(50, store.seasons(77).size());
        assertEquals(8, store.uniqueSkiers(new ResortDay(77, 2025, 1)));
    }

    @Test
    void replaysARideWhoseKeyWasAppliedWithoutStoringItTwice() {
        SkierDay day = new SkierDay(1, 2022, 1, 7);
        assertEquals(RideOutcome.STORED, store.addRide(day, lift(21), "run-1-0-17"));
        assertEquals(RideOutcome.REPLAYED, store.addRide(day, lift(21), "run-1-0-17"));
        assertEquals(RideOutcome.REPLAYED, store.addRide(day, lift(21), "run-1-0-17"));
        assertEquals(OptionalLong.of(210), store.dayVertical(day));
        assertEquals(1, store.ridesStored());
        assertEquals(RideOutcome.STORED, store.addRide(day, lift(21), "run-1-0-18"));
        assertEquals(RideOutcome.STORED, store.addRide(day, lift(21), null));
        assertEquals(OptionalLong.of(630), store.dayVertical(day));
        assertEquals(3, store.ridesStored());
    }

    @Test
    void refusesAKeyAppliedWithAnotherRideAndStoresNothing() {
        SkierDay day = new SkierDay(1, 2022, 1, 7);
        assertEquals(RideOutcome.STORED, store.addRide(day, lift(21), "k"));
        assertEquals(RideOutcome.KEY_REUSED, store.addRide(day, lift(22), "k"));
        assertEquals(RideOutcome.KEY_REUSED, store.addRide(day, new LiftRide(21, 100, 3), "k"));
        assertEquals(OptionalLong.of(210), store.dayVertical(day));
        assertEquals(1, store.ridesStored());
    }

    @Test
    void scopesKeysToTheRidesSkierDay() {
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 7), lift(1), "same"));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(2, 2022, 1, 7), lift(1), "same"));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2023, 1, 7), lift(1), "same"));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 2, 7), lift(1), "same"));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 8), lift(2), "same"));
        assertEquals(5, store.ridesStored());
    }

    @Test
    void aFloodOfOtherRidesKeysNeverMakesAVictimsRetryStoreTwice() {
        SkierDay victim = new SkierDay(1, 2022, 1, 7);
        assertEquals(RideOutcome.STORED, store.addRide(victim, lift(21), "victim"));
        List<CompletableFuture<RideOutcome>> flood = new ArrayList<>();
        int rides = floodRides();
        for (int i = 0; i < rides; i++) { // junk keys on other skier days, in waves a busy Redis answers in time
            flood.add(store.addRideAsync(new SkierDay(1, 2022, 1, 100 + i % 1_000), lift(1), "junk-" + i));
            if (flood.size() == 500) {
                flood.forEach(CompletableFuture::join);
                flood.clear();
            }
        }
        for (int i = 0; i < 7; i++) { // and on the victim's own day, short of what one skier day remembers
            flood.add(store.addRideAsync(victim, lift(1), "own-" + i));
        }
        flood.forEach(CompletableFuture::join);
        assertEquals(RideOutcome.REPLAYED, store.addRide(victim, lift(21), "victim"));
        assertEquals(OptionalLong.of(210 + 7 * 10), store.dayVertical(victim));
        assertEquals(1 + rides + 7, store.ridesStored());
    }

    @Test
    void storesAKeyedRideOnceWhenManyThreadsSendItAtOnce() throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int ride = 0; ride < 50; ride++) {
                String key = "concurrent-" + ride;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<RideOutcome>> outcomes = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Callable<RideOutcome> send = () -> {
                        start.await();
                        return store.addRide(new SkierDay(1, 2022, 3, 5), lift(10), key);
                    };
                    outcomes.add(pool.submit(send));
                }
                start.countDown();
                int stored = 0;
                for (Future<RideOutcome> outcome : outcomes) {
                    RideOutcome o = outcome.get(30, TimeUnit.SECONDS);
                    stored += o == RideOutcome.STORED ? 1 : 0;
                    assertTrue(o != RideOutcome.KEY_REUSED, "the same ride is a replay, not a reused key");
                }
                assertEquals(1, stored, "exactly one of " + threads + " concurrent sends stores ride " + key);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(50, store.ridesStored());
        assertEquals(OptionalLong.of(500 * 10), store.dayVertical(new SkierDay(1, 2022, 3, 5)));
    }

    @Test
    void countsStoredRidesOverEveryResortAndSeason() {
        store.addRide(new SkierDay(1, 2022, 1, 7), lift(1));
        store.addRide(new SkierDay(5, 2021, 1, 7), lift(1));
        store.addRide(new SkierDay(4242, 2030, 366, 100_000), lift(60));
        store.addRide(new SkierDay(4242, 2030, 366, 100_000), lift(60), "x");
        store.addRide(new SkierDay(4242, 2030, 366, 100_000), lift(60), "x");
        assertEquals(4, store.ridesStored());
        assertEquals(OptionalLong.of(1200), store.dayVertical(new SkierDay(4242, 2030, 366, 100_000)));
    }

    /** The test's store with {@code limit} set to {@code max}. */
    private RideStore bounded(Limit limit, long max) {
        store.setLimits(Limits.DEFAULTS.with(limit, max));
        return store;
    }

    @Test
    void refusesANewResortPastTheResortLimitAndKeepsStoringRidesForKnownOnes() {
        RideStore full = bounded(Limit.RESORTS, 11);
        full.addRide(new SkierDay(11, 2022, 1, 1), lift(1));
        LimitReachedException error = assertThrows(
                LimitReachedException.class, () -> full.addRide(new SkierDay(12, 2022, 1, 1), lift(1), "k1"));
        assertEquals(Limit.RESORTS, error.limit());
        assertEquals(
                "the server holds at most 11 resorts (--max-resorts, liftride.maxResorts, LIFTRIDE_MAX_RESORTS);"
                        + " resort 12 would be one more, nothing was stored",
                error.getMessage());
        assertTrue(full.resort(12).isEmpty());
        assertEquals(11, full.resorts().size());
        assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(11, 2023, 2, 5), lift(2), "k1"));
        assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, 1, 1), lift(3), "k2"));
        assertEquals(3, full.ridesStored());
    }

    @Test
    void refusesASeasonPastTheLimitPerResortFromARideOrFromAddSeason() {
        RideStore full = bounded(Limit.SEASONS_PER_RESORT, 2);
        full.addRide(new SkierDay(1, 2021, 1, 1), lift(1));
        assertTrue(full.addSeason(1, 2022));
        assertTrue(full.addSeason(1, 2022), "again is fine: nothing new");
        assertEquals(
                Limit.SEASONS_PER_RESORT,
                assertThrows(LimitReachedException.class, () -> full.addRide(new SkierDay(1, 2023, 1, 1), lift(1)))
                        .limit());
        assertEquals(
                Limit.SEASONS_PER_RESORT,
                assertThrows(LimitReachedException.class, () -> full.addSeason(1, 2024))
                        .limit());
        assertEquals(java.util.List.of(2021, 2022), full.seasons(1));
        full.addRide(new SkierDay(1, 2022, 3, 1), lift(1));
        full.addRide(new SkierDay(2, 2023, 3, 1), lift(1)); // another resort has its own seasons
        assertEquals(3, full.ridesStored());
    }

    @Test
    void refusesANewDayPastTheDayLimitWithoutCreatingItsResortOrSeason() {
        RideStore full = bounded(Limit.RESORT_DAYS, 2);
        if (!limitsDays()) { // a Redis Cluster keeps no global count of days (docs/server.md): stored past it
            for (int day = 1; day <= 3; day++) {
                assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, day, 1), lift(1), null));
            }
            return;
        }
        full.addRide(new SkierDay(1, 2022, 1, 1), lift(1));
        full.addRide(new SkierDay(1, 2022, 2, 1), lift(1));
        assertEquals(
                Limit.RESORT_DAYS,
                assertThrows(LimitReachedException.class, () -> full.addRide(new SkierDay(77, 2030, 3, 1), lift(1)))
                        .limit());
        assertTrue(full.resort(77).isEmpty(), "a refused ride leaves no resort behind");
        assertEquals(java.util.List.of(2022), full.seasons(1));
        assertThrows(LimitReachedException.class, () -> full.addRide(new SkierDay(1, 2023, 1, 1), lift(1)));
        assertEquals(java.util.List.of(2022), full.seasons(1), "nor a season");
        full.addRide(new SkierDay(1, 2022, 2, 99), lift(1));
        assertEquals(2, full.uniqueSkiers(new ResortDay(1, 2022, 2)));
    }

    @Test
    void refusesANewSkierDayPastTheLimitAndForgetsTheRefusedRidesKey() {
        RideStore full = bounded(Limit.SKIER_DAYS, 1);
        if (!limitsDays()) { // a Redis Cluster keeps no global count of skier days (docs/server.md)
            assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, 1, 1), lift(1), "a"));
            assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, 1, 2), lift(1), "b"));
            return;
        }
        assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, 1, 1), lift(1), "a"));
        assertEquals(
                Limit.SKIER_DAYS,
                assertThrows(
                                LimitReachedException.class,
                                () -> full.addRide(new SkierDay(1, 2022, 1, 2), lift(1), "claimed-then-refused"))
                        .limit());
        // Had the refused ride's key stayed claimed, this different ride with it would be a 409 (KEY_REUSED).
        assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2022, 1, 1), lift(2), "claimed-then-refused"));
        assertEquals(RideOutcome.REPLAYED, full.addRide(new SkierDay(1, 2022, 1, 1), lift(2), "claimed-then-refused"));
        assertEquals(2, full.ridesStored());
        assertEquals(30, full.dayVertical(new SkierDay(1, 2022, 1, 1)).getAsLong());
        assertTrue(full.dayVertical(new SkierDay(1, 2022, 1, 2)).isEmpty());
    }

    @Test
    void concurrentRidesToNewResortsNeverTakeTheStorePastItsLimit() throws InterruptedException {
        RideStore full = bounded(Limit.RESORTS, 50);
        java.util.concurrent.atomic.AtomicInteger stored = new java.util.concurrent.atomic.AtomicInteger();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int first = 100 + t * 1_000;
            threads[t] = new Thread(() -> {
                for (int r = first; r < first + 100; r++) {
                    try {
                        full.addRide(new SkierDay(r % 7 == 0 ? 99 : r, 2022, 1, 1), lift(1));
                        stored.incrementAndGet();
                    } catch (LimitReachedException expected) {
                        // past the limit
                    }
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(50, full.resorts().size());
        assertEquals(stored.get(), full.ridesStored());
    }

    @Test
    void anOperatorRaisingALimitStoresWhatItRefusedAndKeepsEveryRide() {
        RideStore full = bounded(Limit.SEASONS_PER_RESORT, 2);
        full.addRide(new SkierDay(1, 2021, 1, 1), lift(1));
        full.addRide(new SkierDay(1, 2022, 1, 1), lift(1));
        assertThrows(LimitReachedException.class, () -> full.addRide(new SkierDay(1, 2023, 1, 1), lift(1)));
        full.setLimits(full.limits().with(Limit.SEASONS_PER_RESORT, 3));
        assertEquals(RideOutcome.STORED, full.addRide(new SkierDay(1, 2023, 1, 1), lift(1), null));
        assertThrows(LimitReachedException.class, () -> full.addSeason(1, 2024));
        assertEquals(3, full.ridesStored());
        assertEquals(List.of(2021, 2022, 2023), full.seasons(1));
    }

    @Test
    void listsAtMostTheResortLimitLowestIdsFirst() {
        store.addRide(new SkierDay(11, 2022, 1, 1), lift(1));
        store.addRide(new SkierDay(12, 2022, 1, 1), lift(1));
        assertEquals(12, store.resorts().size());
        store.setLimits(store.limits().with(Limit.RESORTS, 11));
        List<Resort> listed = store.resorts();
        assertEquals(11, listed.size(), "a store past a lowered limit lists that many");
        assertEquals(11, listed.get(10).id());
        assertTrue(store.resort(12).isPresent(), "and keeps the others");
    }

    @Test
    void aClientPastItsBudgetLeavesRoomForAnotherAndStoresAgainOnceAnOperatorRaisesTheShare() {
        store.setLimits(Limits.DEFAULTS
                .with(Limit.SEASONS_PER_RESORT, 10)
                .with(Limit.RESORT_DAYS, 20)
                .with(Limit.SKIER_DAYS, 40)
                .with(Limit.CLIENT_SHARE_PERCENT, 10)); // budgets: 1 season per resort, 2 days, 4 skier days
        String greedy = "198.51.100.1";
        String other = "198.51.100.2";
        store.addRide(new SkierDay(1, 2021, 1, 1), lift(1), null, greedy);
        if (!budgetsClients()) { // a Redis Cluster keeps no per-client budgets (docs/server.md)
            assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 1), lift(1), null, greedy));
            return;
        }
        LimitReachedException season = assertThrows(
                LimitReachedException.class, () -> store.addRide(new SkierDay(1, 2022, 1, 1), lift(1), null, greedy));
        assertEquals(Limit.SEASONS_PER_RESORT, season.limit());
        assertEquals(
                "the per-client budget allows client 198.51.100.1 to create at most 1 of the server's 10 seasons per"
                        + " resort (10%: --max-client-share, liftride.maxClientSharePercent,"
                        + " LIFTRIDE_MAX_CLIENT_SHARE_PERCENT); season 2022 at resort 1 would be one more, nothing"
                        + " was stored",
                season.getMessage());
        assertEquals(
                Limit.SEASONS_PER_RESORT,
                assertThrows(LimitReachedException.class, () -> store.addSeason(1, 2023, greedy))
                        .limit());
        store.addRide(new SkierDay(1, 2021, 2, 1), lift(1), null, greedy);
        assertEquals(
                Limit.RESORT_DAYS,
                assertThrows(
                                LimitReachedException.class,
                                () -> store.addRide(new SkierDay(1, 2021, 3, 1), lift(1), null, greedy))
                        .limit());
        store.addRide(new SkierDay(1, 2021, 1, 2), lift(1), null, greedy);
        store.addRide(new SkierDay(1, 2021, 1, 3), lift(1), null, greedy);
        LimitReachedException skier = assertThrows(
                LimitReachedException.class, () -> store.addRide(new SkierDay(1, 2021, 1, 4), lift(1), null, greedy));
        assertEquals(Limit.SKIER_DAYS, skier.limit());
        assertTrue(skier.getMessage().contains("at most 4 of the server's 40 skier days"), skier.getMessage());
        assertEquals(
                RideOutcome.STORED,
                store.addRide(new SkierDay(1, 2021, 1, 1), lift(2), null, greedy),
                "rides to its own entries are stored");

        assertEquals(
                RideOutcome.STORED,
                store.addRide(new SkierDay(1, 2022, 5, 9), lift(1), null, other),
                "another client's new season, day and skier");
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2021, 3, 4), lift(1), null, other));

        store.setLimits(store.limits().with(Limit.CLIENT_SHARE_PERCENT, 50));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2023, 1, 1), lift(1), null, greedy));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2021, 4, 5), lift(1), null, greedy));
        assertEquals(9, store.ridesStored(), "every ride stored, none lost");
        assertEquals(List.of(2021, 2022, 2023), store.seasons(1));
        assertEquals(OptionalLong.of(30), store.dayVertical(new SkierDay(1, 2021, 1, 1)));
        assertEquals(3, store.uniqueSkiers(new ResortDay(1, 2021, 1)));
    }
}
