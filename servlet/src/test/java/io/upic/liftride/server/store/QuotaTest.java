package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import org.junit.jupiter.api.Test;

class QuotaTest {

    @Test
    void reservesUpToItsMaxThenRefusesNamingTheEntryAndKeepsItsCount() {
        Quota quota = new Quota(Limit.SEASONS_PER_RESORT, 2);
        quota.reserve("season 1");
        quota.reserve("season 2");
        LimitReachedException full = assertThrows(LimitReachedException.class, () -> quota.reserve("season 3"));
        assertEquals(Limit.SEASONS_PER_RESORT, full.limit());
        assertTrue(full.getMessage().contains("season 3 would be one more"), full.getMessage());
        assertEquals(2, quota.used(), "a refusal takes no place");
        quota.release();
        quota.reserve("season 3");
        assertEquals(2, quota.used());
    }

    @Test
    void aFullQuotaLetsThroughAnEntryCreatedSinceTheCallerLookedWithoutTakingAPlace() {
        Quota quota = new Quota(Limit.RESORT_DAYS, 1);
        assertTrue(quota.reserveUnless("day 1", () -> false), "room: reserved");
        assertEquals(1, quota.used());
        assertFalse(quota.reserveUnless("day 1", () -> true), "full, but the entry exists now: no place needed");
        assertEquals(1, quota.used());
        assertThrows(LimitReachedException.class, () -> quota.reserveUnless("day 2", () -> false));
        assertEquals(1, quota.used());
    }

    @Test
    void looksForTheEntryOnlyWhenFull() {
        Quota quota = new Quota(Limit.RESORTS, 1);
        assertTrue(quota.reserveUnless("resort 1", () -> {
            throw new AssertionError("looked although a place was free");
        }));
    }

    @Test
    void rejectsAMaxBelowOne() {
        assertEquals(
                "max < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new Quota(Limit.RESORTS, 0))
                        .getMessage());
    }
}
