package io.upic.liftride.client.part2.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.report.RunSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ShardMergeTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final String[] PHASES = {"startup", "peak", "cooldown"};

    /** A shard of plan fall2021 -t 8 whose phase k recorded {@code micros[k]}, every attempt a 201. */
    private static ShardRun shard(int k, int n, long startEpochMillis, long[][] micros) {
        return shard(k, n, startEpochMillis, micros, r -> r);
    }

    private static ShardRun shard(
            int k, int n, long startEpochMillis, long[][] micros, UnaryOperator<ShardRecord> change) {
        Map<String, Histogram> byTag = new HashMap<>();
        Histogram run = LatencyHistograms.forMerge();
        List<ShardRecord.Phase> phases = new ArrayList<>();
        List<Long> allValues = new ArrayList<>();
        long total = 0;
        for (int p = 0; p < PHASES.length; p++) {
            Histogram h = LatencyHistograms.forMerge();
            List<Long> values = new ArrayList<>();
            for (long v : micros[p]) {
                h.recordValue(v);
                values.add(v);
            }
            allValues.addAll(values);
            byTag.put(HdrLog.tag(PHASES[p]), h);
            byTag.put(HdrLog.firstTag(PHASES[p]), h.copy());
            run.add(h);
            long count = micros[p].length;
            total += count;
            phases.add(new ShardRecord.Phase(
                    p,
                    PHASES[p],
                    2,
                    count,
                    count,
                    0,
                    0,
                    0,
                    count,
                    0,
                    true,
                    startEpochMillis + 100L * p,
                    startEpochMillis + 100L * p + 500,
                    500_000_000L,
                    latency(values),
                    latency(values),
                    null));
        }
        byTag.put("", run);
        byTag.put(HdrLog.FIRST, run.copy());
        Histogram second = LatencyHistograms.forSecond();
        second.add(run);
        ShardRecord r = new ShardRecord(
                ShardRecord.FORMAT,
                "fall2021",
                8,
                100,
                40,
                10,
                1,
                2022,
                1,
                "raw",
                k,
                n,
                "http://127.0.0.1:1/liftride",
                startEpochMillis,
                startEpochMillis + 1000,
                1_000_000_000L,
                false,
                total,
                total,
                0,
                0,
                0,
                total,
                Map.of(),
                1000L,
                2000L,
                latency(allValues),
                latency(allValues),
                phases,
                new ShardRecord.Seconds(
                        startEpochMillis,
                        new long[] {total},
                        new long[] {total},
                        new long[] {0},
                        new long[] {
                            allValues.stream().mapToLong(Long::longValue).sum()
                        },
                        null, // a file of the first format: 1 s buckets, no width recorded
                        null),
                null,
                null);
        return new ShardRun(Path.of("shard" + k), change.apply(r), byTag, Map.of(startEpochMillis, second), Map.of());
    }

    private static ShardRecord.Latency latency(List<Long> micros) {
        if (micros.isEmpty()) {
            return new ShardRecord.Latency(0, 0, 0, 0);
        }
        double sum = 0;
        long min = Long.MAX_VALUE, max = 0;
        for (long v : micros) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new ShardRecord.Latency(micros.size(), sum / micros.size() / 1000, min / 1000.0, max / 1000.0);
    }

    private static long[][] randomLatencies(long seed, int perPhase) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[][] m = new long[3][perPhase];
        for (long[] phase : m) {
            for (int i = 0; i < phase.length; i++) {
                phase[i] = 50 + rnd.nextLong(200_000); // 50 µs .. 200 ms
            }
        }
        return m;
    }

    @Test
    void twoShardsHistogramsAddUpExactlyToTheHistogramOfAllTheirLatencies() throws Exception {
        long[][] a = randomLatencies(1, 5_000);
        long[][] b = randomLatencies(2, 7_000);
        MergedRun m = ShardMerge.merge("t8", List.of(shard(1, 2, T0, a), shard(2, 2, T0 + 30, b)), false);

        Histogram expected = LatencyHistograms.forMerge();
        for (long[][] shard : new long[][][] {a, b}) {
            for (long[] phase : shard) {
                for (long v : phase) {
                    expected.recordValue(v);
                }
            }
        }
        ScopeStats run = m.metrics().run();
        assertEquals(expected, run.allHistogram(), "every bucket's count is the sum of the shards'");
        assertEquals(36_000, run.all().count());
        for (double p : new double[] {50, 90, 99, 99.9}) {
            assertEquals(expected.getValueAtPercentile(p) / 1000.0, LatencyHistogramsPercentile.of(run, p));
        }
        assertEquals(
                expected.getMaxValue() / 1000.0, run.all().maxMillis(), 0.2, "max is exact, the histogram's rounds");
        double exactMean = (sum(a) + sum(b)) / 36_000.0 / 1000;
        assertEquals(exactMean, run.all().meanMillis(), 1e-9);
        // each phase too
        Histogram peak = LatencyHistograms.forMerge();
        for (long v : a[1]) {
            peak.recordValue(v);
        }
        for (long v : b[1]) {
            peak.recordValue(v);
        }
        assertEquals(peak, m.metrics().phases().get(1).allHistogram());
    }

    private static double sum(long[][] m) {
        double s = 0;
        for (long[] p : m) {
            for (long v : p) {
                s += v;
            }
        }
        return s;
    }

    @Test
    void countsAddAndPhasesSpanFromTheirFirstStartToTheirLastEndOnOneClock() throws Exception {
        MergedRun m = ShardMerge.merge(
                "t8",
                List.of(shard(2, 2, T0 + 2_000, randomLatencies(3, 10)), shard(1, 2, T0, randomLatencies(4, 20))),
                false);
        assertEquals(
                List.of(1, 2),
                m.shards().stream().map(s -> s.record().shardIndex()).toList(),
                "sorted by K");
        assertEquals(90, m.result().requests().planned());
        assertEquals(90, m.result().requests().successful());
        assertEquals(T0, m.result().startEpochMillis());
        assertEquals(3_000_000_000L, m.result().wallNanos(), "first start to last end");
        var peak = m.result().phases().get(1);
        assertEquals(4, peak.threads());
        assertEquals(100_000_000L, peak.startNanos(), "shard 1's peak starts 100 ms after the merged origin");
        assertEquals(2_600_000_000L, peak.endNanos(), "shard 2's peak ends at 2.1 + 0.5 s");
        assertEquals(60, m.seconds().attempts(0), "shard 1's second 0");
        assertEquals(30, m.seconds().attempts(2), "shard 2 started 2 s later: its second 0 is the merged second 2");
        assertEquals(m.seconds().attempts(2), m.seconds().histogram(2).getTotalCount(), "its histogram moved with it");
        RunSummary s = MergedSummary.of(m);
        assertEquals(90, s.successful());
        assertEquals(2, s.shards().size());
        assertEquals(new RunSummary.Server(true, 1000L, 2000L, 1000L, false, null), s.server());
    }

    @Test
    void refusesShardsOfDifferentPlansNamingBoth() {
        long[][] l = randomLatencies(5, 3);
        List<UnaryOperator<ShardRecord>> changes = List.of(
                r -> withPlan(r, "spring2022", r.threads(), r.skiers(), r.lifts(), r.meanRuns()),
                r -> withPlan(r, r.plan(), 16, r.skiers(), r.lifts(), r.meanRuns()),
                r -> withPlan(r, r.plan(), r.threads(), 101, r.lifts(), r.meanRuns()),
                r -> withPlan(r, r.plan(), r.threads(), r.skiers(), 41, r.meanRuns()),
                r -> withPlan(r, r.plan(), r.threads(), r.skiers(), r.lifts(), 11));
        for (UnaryOperator<ShardRecord> change : changes) {
            MergeRefusedException e = assertThrows(
                    MergeRefusedException.class,
                    () -> ShardMerge.merge("t8", List.of(shard(1, 2, T0, l), shard(2, 2, T0, l, change)), false));
            assertTrue(e.getMessage().startsWith("cannot merge t8: shard2 ran plan "), e.getMessage());
            assertTrue(e.getMessage().contains("but shard1 ran plan fall2021 -t 8 -s 100 -l 40 -m 10"), e.getMessage());
            assertTrue(!e.getMessage().contains("\n"));
        }
    }

    private static ShardRecord withPlan(ShardRecord r, String plan, int t, int s, int l, int m) {
        return rebuild(r, plan, t, s, l, m, r.seconds(), r.intended(), r.rate());
    }

    /** {@code r} with ten 100 ms buckets of ten 201s each (files of today's format). */
    private static ShardRecord tenths(ShardRecord r) {
        long[] ten = new long[10], none = new long[10], sum = new long[10];
        Arrays.fill(ten, 10);
        Arrays.fill(sum, 10_000);
        var sec = new ShardRecord.Seconds(r.startEpochMillis(), ten, ten, none, sum, 100L, null);
        return rebuild(r, r.plan(), r.threads(), r.skiers(), r.lifts(), r.meanRuns(), sec, r.intended(), r.rate());
    }

    /** {@code s} run in the open model at {@code rate}: its latencies from the intended send are its actual ones. */
    private static ShardRun open(ShardRun s, double rate) {
        Map<String, Histogram> byTag = new HashMap<>(s.byTag());
        byTag.put(HdrLog.INTENDED, s.histogram("").copy());
        ShardRecord r = s.record();
        ShardRecord open =
                rebuild(r, r.plan(), r.threads(), r.skiers(), r.lifts(), r.meanRuns(), r.seconds(), r.all(), rate);
        return new ShardRun(s.dir(), open, byTag, s.perSecond(), s.perSecondIntended());
    }

    @Test
    void ratesAreTakenOverTheTimeTheShardsRanTogether() throws Exception {
        long[][] l = randomLatencies(11, 5);
        MergedRun m = ShardMerge.merge(
                "t8",
                List.of(shard(1, 2, T0, l, ShardMergeTest::tenths), shard(2, 2, T0 + 500, l, ShardMergeTest::tenths)),
                false);
        assertEquals(100, m.seconds().bucketMillis(), "the shards' own width");
        ReportModel.Shards sh = MergeSections.shards(m);
        assertTrue(sh.overlap());
        assertEquals(T0 + 500, sh.overlapFromEpochMillis());
        assertEquals(T0 + 1000, sh.overlapToEpochMillis());
        assertEquals(100, sh.overlapSuccessful(), "shard 1's last five tenths and shard 2's first five");
        assertEquals(200.0, sh.overlapThroughput(), 1e-9, "both shards' 100 req/s, added while both ran");
        assertTrue(MarkdownReport.overlapText(sh).contains("200.0 req/s"), MarkdownReport.overlapText(sh));
    }

    @Test
    void shardsThatNeverRanTogetherHaveNoCombinedRate() throws Exception {
        long[][] l = randomLatencies(12, 5);
        MergedRun m = ShardMerge.merge(
                "t8",
                List.of(shard(1, 2, T0, l, ShardMergeTest::tenths), shard(2, 2, T0 + 5_000, l, ShardMergeTest::tenths)),
                false);
        ReportModel.Shards sh = MergeSections.shards(m);
        assertFalse(sh.overlap());
        assertTrue(Double.isNaN(sh.overlapThroughput()), "no rate: " + sh.overlapThroughput());
        assertTrue(MarkdownReport.overlapText(sh).contains("never ran together"), MarkdownReport.overlapText(sh));
    }

    @Test
    void openModelShardsKeepTheirLatenciesFromTheIntendedSend() throws Exception {
        MergedRun m = ShardMerge.merge(
                "t8",
                List.of(
                        open(shard(1, 2, T0, randomLatencies(13, 7)), 50),
                        open(shard(2, 2, T0, randomLatencies(14, 9)), 50)),
                false);
        assertEquals(48, m.metrics().run().fromIntended().count(), "3 x 7 + 3 x 9 attempts");
        assertEquals(
                m.metrics().run().all().p99Millis(),
                m.metrics().run().fromIntended().p99Millis());
        RunSummary s = MergedSummary.of(m);
        assertEquals(50.0, s.offeredRate());
        assertNotNull(s.latencyFromIntendedMs());
    }

    private static ShardRecord rebuild(
            ShardRecord r,
            String plan,
            int t,
            int s,
            int l,
            int m,
            ShardRecord.Seconds seconds,
            ShardRecord.Latency intended,
            Double rate) {
        return new ShardRecord(
                r.format(),
                plan,
                t,
                s,
                l,
                m,
                r.resort(),
                r.season(),
                r.day(),
                r.transport(),
                r.shardIndex(),
                r.shardCount(),
                r.server(),
                r.startEpochMillis(),
                r.endEpochMillis(),
                r.wallNanos(),
                r.stopped(),
                r.planned(),
                r.successful(),
                r.failed(),
                r.notSent(),
                r.retries(),
                r.attempts(),
                r.failuresByCause(),
                r.storedBefore(),
                r.storedAfter(),
                r.all(),
                r.first(),
                r.phases(),
                seconds,
                intended,
                rate);
    }

    @Test
    void refusesADifferentShardCountAndTheSameShardTwice() {
        long[][] l = randomLatencies(6, 3);
        MergeRefusedException e = assertThrows(
                MergeRefusedException.class,
                () -> ShardMerge.merge("t8", List.of(shard(1, 2, T0, l), shard(2, 3, T0, l)), false));
        assertEquals("cannot merge t8: shard2 is shard 2/3 but shard1 is shard 1/2", e.getMessage());
        e = assertThrows(
                MergeRefusedException.class,
                () -> ShardMerge.merge("t8", List.of(shard(2, 2, T0, l), shard(2, 2, T0, l)), false));
        assertEquals("cannot merge t8: shard 2/2 given twice (shard2 and shard2)", e.getMessage());
    }

    @Test
    void missingShardsAreRefusedUnlessAllowedAndThenNamed() throws Exception {
        long[][] l = randomLatencies(7, 3);
        List<ShardRun> two = List.of(shard(1, 4, T0, l), shard(3, 4, T0, l));
        MergeRefusedException e = assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", two, false));
        assertTrue(
                e.getMessage().startsWith("cannot merge t8: shards 2/4, 4/4 missing (2 of 4 given)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("Pass --allow-missing to merge the shards there are"));
        MergedRun m = ShardMerge.merge("t8", two, true);
        assertEquals(List.of(2, 4), m.missing());
        assertEquals(18, m.result().requests().successful());
    }

    @Test
    void refusesAHistogramLogThatDoesNotMatchItsRecord() {
        long[][] l = randomLatencies(8, 3);
        ShardRun good = shard(1, 2, T0, l);
        ShardRun other = shard(2, 2, T0, randomLatencies(9, 4));
        ShardRun mixed = new ShardRun(Path.of("shard2"), other.record(), good.byTag(), other.perSecond(), Map.of());
        MergeRefusedException e =
                assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", List.of(good, mixed), false));
        assertTrue(
                e.getMessage().contains("latency.hlog holds 9 latencies but merge-input.json counts 12"),
                e.getMessage());
    }

    /** The merged run's percentile as {@link io.upic.liftride.client.part2.metrics.LatencyStats} reports it. */
    private static final class LatencyHistogramsPercentile {
        static double of(ScopeStats s, double p) {
            return p == 50
                    ? s.all().p50Millis()
                    : p == 90
                            ? s.all().p90Millis()
                            : p == 99 ? s.all().p99Millis() : s.all().p999Millis();
        }
    }
}
