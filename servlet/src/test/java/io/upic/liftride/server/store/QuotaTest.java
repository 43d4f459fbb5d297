package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import org.junit.jupiter.api.Test;

class QuotaTest {

    @Test
    void reservesUpToItsMaxThenRefusesNamingTheEntryAndKeepsItsCount() {
        Quota quota = quota(Limit.SEASONS_PER_RESORT, 2);
        quota.reserve("season 1", null);
        quota.reserve("season 2", null);
        LimitReachedException full = assertThrows(LimitReachedException.class, () -> quota.reserve("season 3", null));
        assertEquals(Limit.SEASONS_PER_RESORT, full.limit());
        assertTrue(full.getMessage().contains("season 3 would be one more"), full.getMessage());
        assertEquals(2, quota.used(), "a refusal takes no place");
        quota.release(null);
        quota.reserve("season 3", null);
        assertEquals(2, quota.used());
    }

    @Test
    void aFullQuotaLetsThroughAnEntryCreatedSinceTheCallerLookedWithoutTakingAPlace() {
        Quota quota = quota(Limit.RESORT_DAYS, 1);
        assertTrue(quota.reserveUnless("day 1", null, () -> false), "room: reserved");
        assertEquals(1, quota.used());
        assertFalse(quota.reserveUnless("day 1", null, () -> true), "full, but the entry exists now: no place needed");
        assertEquals(1, quota.used());
        assertThrows(LimitReachedException.class, () -> quota.reserveUnless("day 2", null, () -> false));
        assertEquals(1, quota.used());
    }

    @Test
    void looksForTheEntryOnlyWhenFull() {
        Quota quota = quota(Limit.RESORT_DAYS, 1);
        assertTrue(quota.reserveUnless("resort 1", null, () -> {
            throw new AssertionError("looked although a place was free");
        }));
    }

    @Test
    void aClientPastItsShareIsRefusedNamingTheBudgetWhileAnotherStillReserves() {
        Quota quota = new Quota(
                Limit.RESORT_DAYS, Limits.DEFAULTS.with(Limit.RESORT_DAYS, 20).with(Limit.CLIENT_SHARE_PERCENT, 10));
        quota.reserve("day 1", "10.0.0.1");
        quota.reserve("day 2", "10.0.0.1");
        LimitReachedException spent =
                assertThrows(LimitReachedException.class, () -> quota.reserve("day 3", "10.0.0.1"));
        assertTrue(
                spent.getMessage().contains("client 10.0.0.1 to create at most 2 of the server's 20"),
                spent.getMessage());
        quota.reserve("day 3", "10.0.0.2");
        quota.release("10.0.0.1");
        quota.reserve("day 4", "10.0.0.1");
        assertEquals(3, quota.used(), "days 1, 3 and 4");
    }

    @Test
    void clientsPastTheCountedOnesShareOneBudget() {
        Quota quota = new Quota(Limit.SKIER_DAYS, Limits.DEFAULTS.with(Limit.CLIENT_SHARE_PERCENT, 100));
        for (int i = 0; i < Quota.MAX_CLIENTS; i++) {
            quota.reserve("skier day " + i, "client " + i);
        }
        quota.setLimits(Limits.DEFAULTS.with(Limit.SKIER_DAYS, 100_000).with(Limit.CLIENT_SHARE_PERCENT, 1));
        quota.reserve("skier day", "client 0");
        for (int i = 0; i < 1_000; i++) {
            quota.reserve("skier day of a new client", "new client " + i);
        }
        LimitReachedException shared =
                assertThrows(LimitReachedException.class, () -> quota.reserve("one more", "yet another client"));
        assertTrue(shared.getMessage().contains("client " + Quota.OTHERS), shared.getMessage());
        quota.reserve("skier day", "client 1");
    }

    private static Quota quota(Limit limit, int max) {
        return new Quota(limit, Limits.DEFAULTS.with(limit, max));
    }
}
