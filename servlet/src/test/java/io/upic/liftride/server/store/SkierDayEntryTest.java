package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SkierDayEntryTest {
    private static final long START = TimeUnit.DAYS.toNanos(400); // past the 91-day wrap of the minutes

    @Test
    void remembersAKeyTwentyFourHoursWithItsRide() {
        SkierDayEntry entry = new SkierDayEntry();
        long key = SkierDayEntry.digest("run-1-0-17");
        assertEquals(RideOutcome.STORED, entry.claim(key, 42, START));
        assertEquals(RideOutcome.REPLAYED, entry.claim(key, 42, START + TimeUnit.MINUTES.toNanos(24 * 60 - 1)));
        assertEquals(RideOutcome.KEY_REUSED, entry.claim(key, 43, START + TimeUnit.HOURS.toNanos(23)));
        assertEquals(RideOutcome.STORED, entry.claim(key, 42, START + TimeUnit.HOURS.toNanos(24)));
    }

    @Test
    void digestsDifferentKeysApart() {
        assertEquals(SkierDayEntry.digest("a"), SkierDayEntry.digest("a"));
        assertNotEquals(SkierDayEntry.digest("a"), SkierDayEntry.digest("b"));
    }
}
