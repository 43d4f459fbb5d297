package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartAtTest {

    private static final Instant AT = Instant.parse("2026-12-01T09:00:00Z");

    /** A clock that moves only when the code under test sleeps. */
    private static final class FakeTime extends Clock implements StartAt.Sleeper {
        private Instant now;
        private final List<Duration> sleeps = new ArrayList<>();

        FakeTime(Instant now) {
            this.now = now;
        }

        @Override
        public void sleep(Duration d) {
            sleeps.add(d);
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void anEarlyShardSleepsUntilExactlyTheInstantInShortSteps() throws Exception {
        FakeTime time = new FakeTime(AT.minusMillis(1_050));
        assertNull(new StartAt(AT, time, time).await(() -> false));
        assertEquals(AT, time.instant());
        assertEquals(Duration.ofMillis(1_050), time.sleeps.stream().reduce(Duration.ZERO, Duration::plus));
        assertTrue(time.sleeps.stream().allMatch(d -> d.toMillis() <= 200), time.sleeps.toString());
    }

    @Test
    void aShardWithinTheToleranceStartsAtOnce() throws Exception {
        FakeTime time = new FakeTime(AT.plus(StartAt.TOLERANCE));
        assertNull(new StartAt(AT, time, time).await(() -> false));
        assertEquals(List.of(), time.sleeps);
    }

    @Test
    void aShardPastTheToleranceRefusesSayingHowLate() throws Exception {
        FakeTime time = new FakeTime(AT.plusMillis(12_345));
        StartAt start = new StartAt(AT, time, time);
        String expected = "--start-at 2026-12-01T09:00:00Z passed 12.3 s ago (more than the 5 s allowed): this"
                + " shard does not start late and alone";
        assertEquals(expected, start.lateness());
        assertEquals(expected, start.await(() -> false));
        assertEquals(List.of(), time.sleeps, "a late shard does not wait");
    }

    @Test
    void aStopEndsTheWaitEarly() throws Exception {
        FakeTime time = new FakeTime(AT.minusSeconds(60));
        assertNull(new StartAt(AT, time, time).await(() -> time.sleeps.size() == 3));
        assertEquals(3, time.sleeps.size());
        assertTrue(time.instant().isBefore(AT));
    }
}
