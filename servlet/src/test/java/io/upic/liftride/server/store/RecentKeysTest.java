package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentKeysTest {
    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void remembersAKeyWithItsRideUntilItExpires() {
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 10, 1 << 20, nanos::get);
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 1));
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("a", 1));
        assertEquals(RecentKeys.Claim.OTHER_RIDE, keys.claim("a", 2));
        nanos.addAndGet(Duration.ofHours(24).toNanos() - 1);
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("a", 1), "kept for the whole 24 h");
        nanos.addAndGet(1);
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 2), "forgotten once 24 h have passed");
        assertEquals(1, keys.size());
    }

    @Test
    void forgetsTheOldestKeysFirstPastItsCapacity() {
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 3, 1 << 20, nanos::get);
        for (String key : new String[] {"a", "b", "c", "d"}) {
            assertEquals(RecentKeys.Claim.NEW, keys.claim(key, 1));
            nanos.incrementAndGet();
        }
        assertEquals(3, keys.size());
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("d", 1));
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("b", 1));
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 1), "the oldest key went first");
    }

    @Test
    void forgetsTheOldestKeysFirstPastItsByteBudgetWhateverTheirCount() {
        String longKey = "k".repeat(128);
        long budget = 3L * RecentKeys.bytesOf(longKey + 0);
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 1_000_000, budget, nanos::get);
        for (int i = 0; i < 10; i++) {
            assertEquals(RecentKeys.Claim.NEW, keys.claim(longKey + i, 1));
        }
        assertEquals(3, keys.size(), "129-character keys: three fit in three keys' bytes");
        assertTrue(keys.bytes() <= budget, keys.bytes() + " bytes over the budget of " + budget);
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim(longKey + 9, 1));
        assertEquals(RecentKeys.Claim.NEW, keys.claim(longKey + 0, 1), "the oldest key went first");
    }

    @Test
    void aReleasedClaimIsNewAgainAndStaysCountedUntilItLeavesTheQueue() {
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 2, 1 << 20, nanos::get);
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 1));
        keys.release("a", 1);
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 2), "a released key replays nothing");
        assertEquals(2, keys.size(), "the released claim still counts against the limit");
        keys.release("a", 1); // the old claim's fingerprint: the newer claim stays
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("a", 2));
        assertEquals(RecentKeys.Claim.NEW, keys.claim("b", 1));
        assertEquals(2, keys.size());
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("a", 2), "evicting the released claim kept the newer one");
    }
}
