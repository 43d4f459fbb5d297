package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentKeysTest {
    private final AtomicLong nanos = new AtomicLong(1_000);

    @Test
    void remembersAKeyWithItsRideUntilItExpires() {
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 10, nanos::get);
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
        RecentKeys keys = new RecentKeys(Duration.ofHours(24), 3, nanos::get);
        for (String key : new String[] {"a", "b", "c", "d"}) {
            assertEquals(RecentKeys.Claim.NEW, keys.claim(key, 1));
            nanos.incrementAndGet();
        }
        assertEquals(3, keys.size());
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("d", 1));
        assertEquals(RecentKeys.Claim.SAME_RIDE, keys.claim("b", 1));
        assertEquals(RecentKeys.Claim.NEW, keys.claim("a", 1), "the oldest key went first");
    }
}
