package io.upic.liftride.client.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.threshold.ThresholdOutlook.SoFar;
import io.upic.liftride.client.threshold.ThresholdOutlook.Tally;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ThresholdOutlookTest {

    private static final long MS = 1_000_000L;

    private static SoFar planned(long requests) {
        return new SoFar(requests, 0, 0, 1_000 * MS);
    }

    private static String whyLost(String threshold, long tally, SoFar soFar) {
        return ThresholdOutlook.whyLost(Threshold.parse(threshold), tally, soFar);
    }

    @Test
    void aPercentileIsLostOnceMoreAttemptsMissedItsBoundThanItLetsPastAtThePlannedTotal() {
        // p99 of 4,000 attempts is the 3,960th: 40 slower ones still leave it under the bound, 41 do not
        assertNull(whyLost("p99<200ms", 40, planned(4_000)));
        String why = whyLost("p99<200ms", 41, planned(4_000));
        assertNotNull(why);
        assertTrue(why.startsWith("41 attempts took at least 200.000 ms, more than the 40 that p99 lets past"), why);
        assertNull(whyLost("p99.9<=1s", 1, planned(1_000)));
        assertNotNull(whyLost("p99.9<=1s", 2, planned(1_000)));
        assertNull(whyLost("p50<10ms", 500, planned(1_000)));
        assertNotNull(whyLost("p50<10ms", 501, planned(1_000)));
    }

    @Test
    void retriesMadeSoFarRaiseThePlannedTotalAndSoWhatAPercentileLetsPast() {
        SoFar retried = new SoFar(4_000, 100, 0, 1_000 * MS); // at most 4,100 attempts: p99 lets 41 past
        assertNull(whyLost("p99<200ms", 41, retried));
        assertTrue(whyLost("p99<200ms", 42, retried).endsWith("(4,000 planned requests + 100 retries)"));
    }

    @Test
    void theMaximumIsLostWithTheFirstAttemptBeyondIt() {
        assertNull(whyLost("max<2s", 0, planned(1_000_000)));
        assertNotNull(whyLost("max<2s", 1, planned(1_000_000)));
        assertNotNull(whyLost("intended.max<=2s", 1, planned(10)));
    }

    @Test
    void theMeanIsLostOnceTheLatencySoFarReachesTheBoundTimesThePlannedTotal() {
        // 1,000 planned attempts, mean < 10 ms: 10 s of latency in all already makes a mean of 10 ms
        assertNull(whyLost("mean<10ms", 9_999 * MS, planned(1_000)));
        assertTrue(whyLost("mean<10ms", 10_000 * MS, planned(1_000)).contains("a mean of 10.000 ms"));
        assertNull(whyLost("mean<=10ms", 10_000 * MS, planned(1_000)));
        assertNotNull(whyLost("mean<=10ms", 10_000 * MS + 1, planned(1_000)));
    }

    @Test
    void failuresOnlyAddUpSoACountBoundIsLostOnceItIsPassed() {
        SoFar one = new SoFar(1_000, 0, 1, 1_000 * MS);
        SoFar five = new SoFar(1_000, 0, 5, 1_000 * MS);
        assertNull(whyLost("failed==0", 0, planned(1_000)));
        assertEquals("1 request failed", whyLost("failed==0", 0, one));
        assertNull(whyLost("failed<=5", 0, five));
        assertNotNull(whyLost("failed<5", 0, five));
        assertNull(whyLost("failed==5", 0, five));
    }

    @Test
    void throughputIsLostWhenEvenEveryRequestNotFailedSucceedingNowIsTooFew() {
        // 10,000 planned, 1,000 failed: 9,000 at best; after 5 s that is 1,800 req/s, after 9 s 1,000 req/s
        assertNull(whyLost("throughput>1000", 0, new SoFar(10_000, 0, 1_000, 5_000 * MS)));
        assertTrue(whyLost("throughput>1000", 0, new SoFar(10_000, 0, 1_000, 9_000 * MS))
                .endsWith("9,000 in 9.0 s is 1,000.0 req/s"));
        assertNull(whyLost("throughput>=1000", 0, new SoFar(10_000, 0, 1_000, 9_000 * MS)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "p99>1ms",
                "mean>=1ms",
                "max==1s",
                "throughput<10",
                "failed>3",
                "failed>=3",
                "p99{op=getSkierDayVertical}<1ms",
                "failed{op=writeNewLiftRide}==0"
            })
    void boundsThatMoreTimeOrMoreAttemptsCanStillMeetAreJudgedAtTheEndOnly(String threshold) {
        Threshold t = Threshold.parse(threshold);
        assertEquals(Tally.NONE, ThresholdOutlook.tallyOf(t));
        SoFar bleak = new SoFar(10, 0, 0, 1_000_000 * MS);
        assertNull(ThresholdOutlook.whyLost(t, Long.MAX_VALUE / 2, bleak), threshold);
    }

    @Test
    void eachJudgedKindTalliesWhatItsRuleReads() {
        assertEquals(Tally.OUTSIDE, ThresholdOutlook.tallyOf(Threshold.parse("p99<1ms")));
        assertEquals(Tally.OUTSIDE, ThresholdOutlook.tallyOf(Threshold.parse("intended.max<=1s")));
        assertEquals(Tally.LATENCY_SUM, ThresholdOutlook.tallyOf(Threshold.parse("mean<1ms")));
        assertEquals(Tally.NONE, ThresholdOutlook.tallyOf(Threshold.parse("failed==0")));
        assertTrue(ThresholdOutlook.judgedEarly(Threshold.parse("failed==0")));
        assertTrue(ThresholdOutlook.judgedEarly(Threshold.parse("throughput>=5")));
    }
}
