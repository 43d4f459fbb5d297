package io.upic.liftride.client.part2.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static final long MS = 1_000_000L;

    @Test
    void eachBucketIsPlacedAtTheMiddleOfWhatTheRunCoveredAndItsRateDividesByThat() {
        TimeBuckets b = new TimeBuckets();
        for (int i = 0; i < 10; i++) {
            b.add(10 * MS, 1000, AttemptCodes.SUCCESS); // ten 201s completing at 11 ms
        }
        b.add(110 * MS, 2000, 503); // one failure at 112 ms
        b.add(240 * MS, 1000, AttemptCodes.SUCCESS); // one 201 at 241 ms, in the last, partial bucket
        RunResult r = Fixtures.run(Fixtures.phase()
                        .name("peak")
                        .startNanos(0)
                        .endNanos(250 * MS)
                        .build())
                .startNanos(0)
                .wallNanos(250 * MS)
                .build();
        Timeline t = Timeline.of(b, r);
        assertEquals(0.1, t.bucketSeconds(), 1e-12);
        assertArrayEquals(new double[] {0.05, 0.15, 0.225}, t.x(), 1e-9);
        assertEquals(100, t.okPerSecond()[0], 1e-9, "ten in 0.1 s");
        assertEquals(20, t.okPerSecond()[2], 1e-9, "one in the 0.05 s the run covered of the last bucket");
        assertEquals(10, t.failedPerSecond()[1], 1e-9);
        assertTrue(Double.isNaN(t.failedPerSecond()[0]), "no failure: no point");
        assertEquals(2.0, t.mean()[1], 1e-9);
        assertNull(t.intendedP99(), "the closed model");
        assertEquals(1, t.phases().size());
        assertEquals(0.25, t.phases().get(0).toSeconds(), 1e-9);
    }
}
