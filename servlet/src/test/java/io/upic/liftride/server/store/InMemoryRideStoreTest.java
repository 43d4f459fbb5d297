package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SkierDay;
import org.junit.jupiter.api.Test;

/** The {@link RideStoreContract} on the in-memory store, plus what only it does. */
class InMemoryRideStoreTest extends RideStoreContract {
    @Override
    protected RideStore newStore() {
        return InMemoryRideStore.withSeedResorts();
    }

    private static LiftRide lift(int liftId) {
        return new LiftRide(liftId, 100, LiftRide.NO_WAIT_TIME);
    }

    @Test
    void refusesIdsThePackedKeysCannotHoldNamingThem() {
        IllegalArgumentException error = assertThrows(
                IllegalArgumentException.class, () -> store.addRide(new SkierDay(1, 10_000, 1, 1), lift(1)));
        assertEquals("seasonID must be in 0..9999, got 10000", error.getMessage());
        error = assertThrows(IllegalArgumentException.class, () -> store.addRide(new SkierDay(0, 2022, 1, 1), lift(1)));
        assertEquals("resortID must be >= 1, got 0", error.getMessage());
        assertEquals(0, store.ridesStored());
    }

    @Test
    void saysItIsTheMemoryStore() {
        assertEquals("memory", store.description());
    }

    private static InMemoryRideStore bounded(Limit limit, long max) {
        return InMemoryRideStore.withSeedResorts(Limits.DEFAULTS.with(limit, max));
    }

    @Test
    void refusesANewResortPastTheResortLimitAndKeepsStoringRidesForKnownOnes() {
        InMemoryRideStore full = bounded(Limit.RESORTS, 11);
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
        InMemoryRideStore full = bounded(Limit.SEASONS_PER_RESORT, 2);
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
        InMemoryRideStore full = bounded(Limit.RESORT_DAYS, 2);
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
        InMemoryRideStore full = bounded(Limit.SKIER_DAYS, 1);
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
        InMemoryRideStore full = bounded(Limit.RESORTS, 50);
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
}
