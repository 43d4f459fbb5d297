package io.upic.liftride.client.part2.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.report.HdrLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeBucketsTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 1_700_000_000_000L;

    /** One attempt of 1 ms latency every {@code stepMillis} for {@code seconds}; returns the count. */
    private static long feed(TimeBuckets b, long seconds, long stepMillis) {
        long n = 0;
        for (long t = 0; t < seconds * 1000; t += stepMillis) {
            b.add(t * MS, 1000, n % 50 == 0 ? 503 : AttemptCodes.SUCCESS, n % 2 == 0 ? 200 : -1);
            n++;
        }
        return n;
    }

    @Test
    void aSixSecondRunHasSixtyBucketsOfOneHundredMilliseconds() {
        TimeBuckets b = new TimeBuckets();
        long n = feed(b, 6, 5);
        assertEquals(100, b.bucketMillis());
        assertEquals(60, b.count());
        assertEquals(n, b.totalAttempts());
        assertEquals(20, b.attempts(0), "one attempt per 5 ms completes in each 100 ms");
    }

    @Test
    void aRunPastAMinuteIsCoalescedIntoOneSecondBucketsKeepingEveryAttempt() {
        TimeBuckets b = new TimeBuckets();
        long n = feed(b, 300, 10);
        assertEquals(1000, b.bucketMillis());
        assertEquals(300, b.count());
        assertEquals(n, b.totalAttempts());
        long inHistograms = 0, failed = 0;
        for (int i = 0; i < b.count(); i++) {
            inHistograms += b.histogram(i).getTotalCount();
            failed += b.failed(i);
            assertEquals(100, b.attempts(i), "bucket " + i);
            assertEquals(b.attempts(i), b.successful(i) + b.failed(i));
            assertEquals(50, b.fromIntendedHistogram(i).getTotalCount(), "every other attempt had an intended send");
            assertEquals(1.2, b.fromIntendedMeanMillis(i), 1e-9, "200 us late + 1 ms");
        }
        assertEquals(n, inHistograms, "the histograms were added, not dropped");
        assertEquals(b.totalFailed(), failed);
    }

    @Test
    void aLongRunNeverKeepsMoreThanTheMaximumOfBuckets() {
        TimeBuckets b = new TimeBuckets();
        long n = feed(b, 2 * 3600 + 5, 500);
        assertTrue(b.count() <= TimeBuckets.MAX_BUCKETS, "buckets: " + b.count());
        assertEquals(4000, b.bucketMillis(), "1 s, then pairs: 2 s after an hour, 4 s after two");
        assertEquals(n, b.totalAttempts());
    }

    @Test
    void aShardsPerBucketLogAddsBackIntoBucketsWithItsFailedAndIntendedCounts() throws Exception {
        TimeBuckets shard = new TimeBuckets();
        long n = feed(shard, 6, 5);
        Path log = Files.createTempFile("per-bucket", ".hlog");
        try {
            HdrLog.writePerBucket(log, T0, shard, "test");
            RunRecord record = new RunRecord(log.getParent(), null, Map.of(), HdrLog.read(log));
            TimeBuckets merged = new TimeBuckets();
            record.addBuckets(T0 - 1000, merged); // this shard started 1 s after the merged run
            assertEquals(n, merged.totalAttempts());
            assertEquals(shard.totalFailed(), merged.totalFailed());
            assertEquals(70, merged.count(), "ten empty buckets first, then the shard's sixty");
            for (int i = 0; i < shard.count(); i++) {
                assertEquals(shard.successful(i), merged.successful(i + 10), "bucket " + i);
                assertEquals(shard.failed(i), merged.failed(i + 10), "bucket " + i);
                assertEquals(
                        shard.fromIntendedHistogram(i).getTotalCount(),
                        merged.fromIntendedHistogram(i + 10).getTotalCount());
                assertEquals(shard.meanMillis(i), merged.meanMillis(i + 10), 0.01 * shard.meanMillis(i));
            }
        } finally {
            Files.delete(log);
        }
    }
}
