package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.upic.liftride.server.model.LiftRide;
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
        assertEquals(
                "the packed keys hold resortID >= 1, seasonID 0..9999 and dayID 1..511, got 1, 10000, 1",
                error.getMessage());
        error = assertThrows(IllegalArgumentException.class, () -> store.addRide(new SkierDay(0, 2022, 1, 1), lift(1)));
        assertEquals(
                "the packed keys hold resortID >= 1, seasonID 0..9999 and dayID 1..511, got 0, 2022, 1",
                error.getMessage());
        assertEquals(0, store.ridesStored());
    }

    @Test
    void saysItIsTheMemoryStore() {
        assertEquals("memory", store.description());
    }

    @Test
    void remembersTheEightNewestKeysOfASkierDay() {
        SkierDay day = new SkierDay(1, 2022, 1, 7);
        for (int i = 0; i <= SkierDayEntry.MAX_KEYS; i++) {
            assertEquals(RideOutcome.STORED, store.addRide(day, lift(1), "k" + i));
        }
        assertEquals(RideOutcome.REPLAYED, store.addRide(day, lift(1), "k1"));
        assertEquals(RideOutcome.STORED, store.addRide(day, lift(1), "k0"), "the oldest of nine is forgotten");
    }
}
