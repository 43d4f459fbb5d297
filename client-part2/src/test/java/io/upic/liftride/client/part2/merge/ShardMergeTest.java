package io.upic.liftride.client.part2.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.compare.RunRecord;
import io.upic.liftride.client.part2.metrics.LatencyHistograms;
import io.upic.liftride.client.part2.metrics.ScopeStats;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.ConsoleReport;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.part2.report.MarkdownReport;
import io.upic.liftride.client.part2.report.ReportModel;
import io.upic.liftride.client.report.RampStages;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import io.upic.liftride.client.report.SummarySchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardMergeTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final String[] PHASES = {"startup", "peak", "cooldown"};

    @TempDir
    Path dir;

    /** A shard of plan fall2021 -t 8 whose phase k recorded {@code micros[k]}, every attempt a 201. */
    private RunRecord shard(int k, int n, long startEpochMillis, long[][] micros) throws IOException {
        return shard(k, n, startEpochMillis, micros, b -> b);
    }

    /**
     * The shard's record as a run writes it: its summary ({@code change} applied), its histogram log's histograms
     * (phase p from {@code start + 100 p} ms for 500 ms) and its per-bucket log (phase p's attempts in the 100 ms
     * bucket from its start).
     */
    private RunRecord shard(
            int k, int n, long start, long[][] micros, UnaryOperator<RunSummary.RunSummaryBuilder> change)
            throws IOException {
        Map<String, Histogram> byTag = new HashMap<>();
        Histogram run = LatencyHistograms.forMerge();
        List<RunSummary.Phase> phases = new ArrayList<>();
        List<Long> allValues = new ArrayList<>();
        List<Histogram> perBucket = new ArrayList<>();
        for (int p = 0; p < PHASES.length; p++) {
            Histogram h = LatencyHistograms.forMerge();
            List<Long> values = new ArrayList<>();
            for (long v : micros[p]) {
                h.recordValue(v);
                values.add(v);
            }
            perBucket.add(bucket(h.copy(), start + 100L * p, 100));
            h.setStartTimeStamp(start + 100L * p);
            h.setEndTimeStamp(start + 100L * p + 500);
            allValues.addAll(values);
            byTag.put(HdrLog.tag(PHASES[p]), h);
            byTag.put(HdrLog.firstTag(PHASES[p]), h.copy());
            run.add(h);
            long count = micros[p].length;
            phases.add(
                    new RunSummary.Phase(PHASES[p], 2, count, count, 0, 0.5, count / 0.5, latency(values), null, null));
        }
        byTag.put("", run);
        byTag.put(HdrLog.FIRST, run.copy());
        long total = allValues.size();
        RunSummary.RunSummaryBuilder b = RunSummary.builder()
                .schemaVersion(RunSummary.SCHEMA_VERSION)
                .client("client-part2")
                .startTime(Instant.ofEpochMilli(start).toString())
                .endTime(Instant.ofEpochMilli(start + 1000).toString())
                .shard(new RunSummary.Shard(k, n))
                .plan("fall2021")
                .threads(8)
                .skiers(100)
                .lifts(40)
                .meanRuns(10)
                .resort(1)
                .season(2022)
                .day(1)
                .transport("raw")
                .serverUrl("http://127.0.0.1:1/liftride")
                .requests(new Requests(total, total, 0, 0, 0, total))
                .failuresByCause(Map.of())
                .wallSeconds(1.0)
                .throughput(total)
                .ok(true)
                .phases(phases)
                .latencyMs(latency(allValues))
                .thresholds(List.of())
                .thresholdsPassed(true)
                .server(new RunSummary.Server(true, 1000L, 2000L, 1000L, false, null))
                .problems(List.of());
        Path shardDir = Files.createDirectories(dir.resolve("shard" + k));
        return new RunRecord(shardDir, change.apply(b).build(), byTag, perBucket);
    }

    /** {@code h} timed as a bucket of {@code width} ms from {@code start}. */
    private static Histogram bucket(Histogram h, long start, long width) {
        h.setStartTimeStamp(start);
        h.setEndTimeStamp(start + width);
        return h;
    }

    /** The exact mean and max of {@code micros} as a summary has them (the percentiles come from the logs). */
    private static RunSummary.Latency latency(List<Long> micros) {
        if (micros.isEmpty()) {
            return new RunSummary.Latency(null, null, null, null, null, null);
        }
        double mean = micros.stream().mapToLong(Long::longValue).average().orElseThrow() / 1000;
        double max = micros.stream().mapToLong(Long::longValue).max().orElseThrow() / 1000.0;
        return new RunSummary.Latency(mean, null, null, null, null, max);
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
        MergedRun m = ShardMerge.merge("t8", List.of(shard(1, 2, T0, a), shard(2, 2, T0 + 30, b)), false, List.of());

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
        assertEquals(36_000, run.all().attempts());
        for (double p : new double[] {50, 90, 99, 99.9}) {
            assertEquals(expected.getValueAtPercentile(p) / 1000.0, LatencyHistogramsPercentile.of(run, p));
        }
        assertEquals(expected.getMaxValue() / 1000.0, run.all().max(), 0.2, "max is exact, the histogram's rounds");
        double exactMean = (sum(a) + sum(b)) / 36_000.0 / 1000;
        assertEquals(exactMean, run.all().mean(), 1e-9);
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
                false,
                List.of());
        assertEquals(List.of(1, 2), m.shards().stream().map(RunRecord::index).toList(), "sorted by K");
        assertEquals(90, m.result().requests().planned());
        assertEquals(90, m.result().requests().successful());
        assertEquals(T0, m.result().startEpochMillis());
        assertEquals(3_000_000_000L, m.result().wallNanos(), "first start to last end");
        var peak = m.result().phases().get(1);
        assertEquals(4, peak.threads());
        assertEquals(100_000_000L, peak.startNanos(), "shard 1's peak starts 100 ms after the merged origin");
        assertEquals(2_600_000_000L, peak.endNanos(), "shard 2's peak ends at 2.1 + 0.5 s");
        assertArrayEquals(new long[] {60, 60}, attempts(m.seconds(), 0, 1000), "shard 1's attempts, in its second");
        assertArrayEquals(
                new long[] {30, 30}, attempts(m.seconds(), 2000, 3000), "shard 2's, 2 s later with their histograms");
        RunSummary s = m.summary();
        assertEquals(90, s.successful());
        assertEquals(2, s.shards().size());
        assertEquals(new RunSummary.Server(true, 1000L, 2000L, 1000L, false, null), s.server());
    }

    /** Attempts in the merged buckets from {@code fromMillis} to {@code toMillis}, and in their histograms. */
    private static long[] attempts(TimeBuckets b, long fromMillis, long toMillis) {
        long n = 0, h = 0;
        for (int i = 0; i < b.count(); i++) {
            if (i * b.bucketMillis() >= fromMillis && i * b.bucketMillis() < toMillis) {
                n += b.attempts(i);
                h += b.histogram(i) == null ? 0 : b.histogram(i).getTotalCount();
            }
        }
        return new long[] {n, h};
    }

    @Test
    void refusesShardsOfDifferentPlansNamingBoth() throws Exception {
        long[][] l = randomLatencies(5, 3);
        List<UnaryOperator<RunSummary.RunSummaryBuilder>> changes = List.of(
                b -> b.plan("spring2022"),
                b -> b.threads(16),
                b -> b.skiers(101),
                b -> b.lifts(41),
                b -> b.meanRuns(11),
                b -> b.day(2));
        for (UnaryOperator<RunSummary.RunSummaryBuilder> change : changes) {
            List<RunRecord> shards = List.of(shard(1, 2, T0, l), shard(2, 2, T0, l, change));
            MergeRefusedException e =
                    assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", shards, false, List.of()));
            assertTrue(
                    e.getMessage().startsWith("cannot merge t8: " + dir.resolve("shard2") + " ran plan "),
                    e.getMessage());
            assertTrue(
                    e.getMessage()
                            .contains("but " + dir.resolve("shard1")
                                    + " ran plan fall2021 -t 8 -s 100 -l 40 -m 10 (resort 1, season 2022, day 1)"),
                    e.getMessage());
            assertTrue(!e.getMessage().contains("\n"));
        }
    }

    /** {@code s} with a per-bucket log of ten 201s of 1 ms in each 100 ms of its first second. */
    private static RunRecord tenths(RunRecord s) {
        List<Histogram> perBucket = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Histogram h = LatencyHistograms.forSecond();
            h.recordValueWithCount(1000, 10);
            perBucket.add(bucket(h, s.startEpochMillis() + 100L * i, 100));
        }
        return new RunRecord(s.source(), s.summary(), s.byTag(), perBucket);
    }

    /** {@code s} run in the open model at {@code rate}: its latencies from the intended send are its actual ones. */
    private static RunRecord open(RunRecord s, double rate) {
        Map<String, Histogram> byTag = new HashMap<>(s.byTag());
        byTag.put(HdrLog.INTENDED, s.histogram("").copy());
        RunSummary open = s.summary().toBuilder()
                .offeredRate(rate)
                .latencyFromIntendedMs(s.summary().latencyMs())
                .build();
        return new RunRecord(s.source(), open, byTag, s.perBucket());
    }

    @Test
    void ratesAreTakenOverTheTimeTheShardsRanTogether() throws Exception {
        long[][] l = randomLatencies(11, 5);
        MergedRun m = ShardMerge.merge(
                "t8", List.of(tenths(shard(1, 2, T0, l)), tenths(shard(2, 2, T0 + 500, l))), false, List.of());
        assertEquals(100, m.seconds().bucketMillis(), "a short run's buckets");
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
                "t8", List.of(tenths(shard(1, 2, T0, l)), tenths(shard(2, 2, T0 + 5_000, l))), false, List.of());
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
                false,
                List.of());
        assertEquals(48, m.metrics().run().fromIntended().attempts(), "3 x 7 + 3 x 9 attempts");
        assertEquals(
                m.metrics().run().all().p99(), m.metrics().run().fromIntended().p99());
        RunSummary s = m.summary();
        assertEquals(50.0, s.offeredRate());
        assertNotNull(s.latencyFromIntendedMs());
    }

    /**
     * {@code s} (whose phase p recorded {@code micros[p]}) run with --mix and --ramp: phases 0 and 1 were ride POSTs,
     * phase 2 GETs of a skier's vertical; each phase a ramp stage with {@code rates[p]} = {offered, achieved, send
     * lag mean ms}.
     */
    private static RunRecord mixedRamp(RunRecord s, long[][] micros, double[][] rates) {
        Map<String, Histogram> byTag = new HashMap<>(s.byTag());
        Histogram post = LatencyHistograms.forMerge(), get = LatencyHistograms.forMerge();
        List<Long> postValues = new ArrayList<>(), getValues = new ArrayList<>();
        for (int p = 0; p < micros.length; p++) {
            for (long v : micros[p]) {
                (p < 2 ? post : get).recordValue(v);
                (p < 2 ? postValues : getValues).add(v);
            }
        }
        byTag.put(HdrLog.operationTag(Operation.WRITE_NEW_LIFT_RIDE), post);
        byTag.put(HdrLog.operationTag(Operation.GET_SKIER_DAY_VERTICAL), get);
        byTag.put(HdrLog.INTENDED, s.histogram("").copy());
        long posts = postValues.size(), gets = getValues.size();
        List<RampStages.Stage> stages = new ArrayList<>();
        for (int p = 0; p < PHASES.length; p++) {
            double[] r = rates[p];
            boolean inFull = RampStages.shortfall(r[0], r[1], r[2] * 1e6) == null;
            stages.add(
                    new RampStages.Stage(PHASES[p], 10, 100, 0.5, r[0], r[1], r[1] / r[0], r[2], 2 * r[2], 0, inFull));
        }
        RunSummary mixed = s.summary().toBuilder()
                .operations(List.of(
                        new RunSummary.OperationRow(
                                "writeNewLiftRide", 90, posts, posts, 0, 0, posts, posts, latency(postValues)),
                        new RunSummary.OperationRow(
                                "getSkierDayVertical", 10, gets, gets, 0, 0, gets, gets, latency(getValues))))
                .ramp(new RunSummary.RampOutcome("10,100:0.5s,100:0.5s,100:0.5s", stages))
                .server(new RunSummary.Server(false, 1000L, 1080L, null, null, "other shards write meanwhile"))
                .latencyFromIntendedMs(s.summary().latencyMs())
                .build();
        return new RunRecord(s.source(), mixed, byTag, s.perBucket());
    }

    /** {@code s} stopped by --abort-on-fail {@code afterSeconds} into its run. */
    private static RunRecord aborted(RunRecord s, double afterSeconds) {
        long at = s.startEpochMillis() + Math.round(afterSeconds * 1000);
        RunSummary a = s.summary().toBuilder()
                .stopped(true)
                .abort(new RunSummary.Aborted(
                        "p99<1ms", "p99 is 150.0 ms", Instant.ofEpochMilli(at).toString(), afterSeconds, null))
                .build();
        return new RunRecord(s.source(), a, s.byTag(), s.perBucket());
    }

    private static long[][] latencies(int perPhase, long micros) {
        long[][] m = new long[3][perPhase];
        for (int p = 0; p < 3; p++) {
            for (int i = 0; i < perPhase; i++) {
                m[p][i] = micros * (p + 1) + i;
            }
        }
        return m;
    }

    @Test
    void mixesRampsAndAnAbortedShardMergeIntoOneRunsRows() throws Exception {
        long[][] a = latencies(30, 1_000), b = latencies(10, 50_000);
        RunRecord one = mixedRamp(shard(1, 2, T0, a), a, new double[][] {{50, 50, 0.1}, {50, 49, 0.1}, {60, 60, 0.5}});
        RunRecord two = aborted(
                mixedRamp(shard(2, 2, T0 + 30, b), b, new double[][] {{50, 48, 0.1}, {50, 47, 0.1}, {20, 20, 2.0}}),
                0.4);
        MergedRun m = ShardMerge.merge("t8", List.of(two, one), false, List.of());
        RunSummary s = m.summary();

        // the mix: counts add, latencies from the added per-operation histograms (never averaged percentiles)
        RunSummary.OperationRow post = s.operations().get(0),
                get = s.operations().get(1);
        assertEquals(
                List.of("writeNewLiftRide", "getSkierDayVertical"),
                s.operations().stream().map(RunSummary.OperationRow::operation).toList());
        assertEquals(80, post.requests());
        assertEquals(40, get.successful());
        assertEquals(90, post.weight());
        Histogram gets = LatencyHistograms.forMerge();
        for (long[][] shard : List.of(a, b)) {
            for (long v : shard[2]) {
                gets.recordValue(v);
            }
        }
        assertEquals(
                Math.min(gets.getValueAtPercentile(99) / 1e3, get.latencyMs().max()),
                get.latencyMs().p99());
        assertEquals(gets.getValueAtPercentile(50) / 1e3, get.latencyMs().p50());
        assertEquals((30 * 3014.5 + 10 * 150_004.5) / 40 / 1e3, get.latencyMs().mean(), 1e-9, "exact mean");
        assertEquals(150.009, get.latencyMs().max(), 1e-9);

        // the ramp: rates add per stage, and the flag is the single run's rule on the sums
        List<RampStages.Stage> stages = s.ramp().stages();
        assertEquals(100, stages.get(0).offeredPerSecond());
        assertEquals(98, stages.get(0).achievedPerSecond());
        assertTrue(stages.get(0).offeredInFull(), "0.98 of offered: shard 2's 0.96 alone would be short");
        assertEquals(96, stages.get(1).achievedPerSecond());
        assertFalse(stages.get(1).offeredInFull(), "0.96 of offered: shard 1's 0.98 alone would be in full");
        assertEquals((30 * 0.5 + 10 * 2.0) / 40, stages.get(2).sendLagMeanMs(), 1e-12, "weighted by sends");
        assertTrue(stages.get(2).offeredInFull(), "0.875 ms mean lag; the shards' plain mean would be 1.25 ms");
        assertEquals(4.0, stages.get(2).sendLagMaxMs());

        // the abort: the shard's, on the merged clock; the merge exits as the run does (3), not as a failure
        RunSummary.Aborted abort = s.abort();
        assertEquals("2/2", abort.shard());
        assertEquals("p99<1ms", abort.threshold());
        assertEquals("p99 is 150.0 ms", abort.reason());
        assertEquals(Instant.ofEpochMilli(T0 + 430).toString(), abort.time());
        assertEquals(0.43, abort.afterSeconds(), 1e-9, "shard 2 started 30 ms after the merged run");
        assertEquals(List.of(), s.problems(), "an abort is recorded, not a problem");
        assertEquals(3, m.exitCode());
        assertEquals(Boolean.TRUE, s.server().reconciled(), "the server stored the 80 POSTs; the GETs store nothing");

        // the summary is valid, and the reports show the rows a single run's show
        String json = SummaryJson.toJson(s);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        ReportModel.Run section = MergeSections.section(m, List.of(), null);
        String md = Files.readString(MarkdownReport.write(
                dir,
                new ReportModel(
                        new ReportModel.Header("t", "merge", "now", List.of(), List.of(), false),
                        null,
                        List.of(section))));
        assertTrue(md.contains("| getSkierDayVertical | 10 | 40 |"), md);
        assertTrue(md.contains("peak NOT OFFERED IN FULL: achieved 0.960 of offered"), md);
        assertFalse(md.contains("startup NOT OFFERED"), md);
        assertTrue(md.contains("Stopped by --abort-on-fail 0.4 s into the run (shard 2/2): p99<1ms"), md);
        var console = new java.io.ByteArrayOutputStream();
        ConsoleReport.printRatesAndOperations(new java.io.PrintStream(console, true, StandardCharsets.UTF_8), section);
        String text = console.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("getSkierDayVertical") && text.contains("peak NOT OFFERED IN FULL"), text);
    }

    @Test
    void anOperationWhoseHistogramSomeShardsLogLacksIsRefusedAsALogOffItsSummary() throws Exception {
        long[][] a = latencies(5, 1_000);
        double[][] rates = {{50, 50, 0.1}, {50, 50, 0.1}, {50, 50, 0.1}};
        RunRecord one = mixedRamp(shard(1, 2, T0, a), a, rates);
        RunRecord full = mixedRamp(shard(2, 2, T0, a), a, rates);
        Map<String, Histogram> byTag = new HashMap<>(full.byTag());
        byTag.remove(HdrLog.operationTag(Operation.GET_SKIER_DAY_VERTICAL));
        RunRecord older = new RunRecord(full.source(), full.summary(), byTag, full.perBucket());
        MergeRefusedException e = assertThrows(
                MergeRefusedException.class, () -> ShardMerge.merge("t8", List.of(one, older), false, List.of()));
        assertTrue(
                e.getMessage()
                        .contains("latency.hlog holds 0 latencies tagged op.getSkierDayVertical but summary.json"
                                + " counts 5"),
                e.getMessage());
    }

    @Test
    void refusesShardsOfDifferentMixesOrRamps() throws Exception {
        long[][] a = latencies(5, 1_000);
        double[][] rates = {{50, 50, 0.1}, {50, 50, 0.1}, {50, 50, 0.1}};
        RunRecord one = mixedRamp(shard(1, 2, T0, a), a, rates);
        RunRecord two = mixedRamp(shard(2, 2, T0, a), a, rates);
        List<RunSummary.OperationRow> rows = new ArrayList<>(two.summary().operations());
        rows.set(
                1,
                new RunSummary.OperationRow(
                        "getSkierDayVertical", 20, 5, 5, 0, 0, 5, 5, rows.get(1).latencyMs()));
        RunRecord reweighted = new RunRecord(
                two.source(), two.summary().toBuilder().operations(rows).build(), two.byTag(), two.perBucket());
        RunRecord steeper = new RunRecord(
                two.source(),
                two.summary().toBuilder()
                        .ramp(new RunSummary.RampOutcome(
                                "10,200:0.5s,100:0.5s,100:0.5s",
                                two.summary().ramp().stages()))
                        .build(),
                two.byTag(),
                two.perBucket());
        for (RunRecord unlike : List.of(reweighted, steeper)) {
            MergeRefusedException e = assertThrows(
                    MergeRefusedException.class, () -> ShardMerge.merge("t8", List.of(one, unlike), false, List.of()));
            assertTrue(
                    e.getMessage().contains(" --mix writeNewLiftRide=90,getSkierDayVertical=10 --ramp 10,100:0.5s"),
                    e.getMessage());
        }
    }

    @Test
    void refusesADifferentShardCountAndTheSameShardTwice() throws Exception {
        long[][] l = randomLatencies(6, 3);
        List<RunRecord> unlike = List.of(shard(1, 2, T0, l), shard(2, 3, T0, l));
        MergeRefusedException e =
                assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", unlike, false, List.of()));
        Path one = dir.resolve("shard1"), two = dir.resolve("shard2");
        assertEquals("cannot merge t8: " + two + " is shard 2/3 but " + one + " is shard 1/2", e.getMessage());
        List<RunRecord> twice = List.of(shard(2, 2, T0, l), shard(2, 2, T0, l));
        e = assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", twice, false, List.of()));
        assertEquals("cannot merge t8: shard 2/2 given twice (" + two + " and " + two + ")", e.getMessage());
    }

    @Test
    void missingShardsAreRefusedUnlessAllowedAndThenNamed() throws Exception {
        long[][] l = randomLatencies(7, 3);
        List<RunRecord> two = List.of(shard(1, 4, T0, l), shard(3, 4, T0, l));
        MergeRefusedException e =
                assertThrows(MergeRefusedException.class, () -> ShardMerge.merge("t8", two, false, List.of()));
        assertTrue(
                e.getMessage().startsWith("cannot merge t8: shards 2/4, 4/4 missing (2 of 4 given)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("Pass --allow-missing to merge the shards there are"));
        MergedRun m = ShardMerge.merge("t8", two, true, List.of());
        assertEquals(List.of(2, 4), m.missing());
        assertEquals(18, m.result().requests().successful());
    }

    @Test
    void refusesAHistogramLogThatDoesNotMatchItsSummary() throws Exception {
        long[][] l = randomLatencies(8, 3);
        RunRecord good = shard(1, 2, T0, l);
        RunRecord other = shard(2, 2, T0, randomLatencies(9, 4));
        RunRecord mixed = new RunRecord(other.source(), other.summary(), good.byTag(), good.perBucket());
        MergeRefusedException e = assertThrows(
                MergeRefusedException.class, () -> ShardMerge.merge("t8", List.of(good, mixed), false, List.of()));
        assertTrue(
                e.getMessage().contains("latency.hlog holds 9 latencies but summary.json counts 12"), e.getMessage());
    }

    /** The merged run's percentile as {@link io.upic.liftride.client.part2.metrics.Latency} reports it. */
    private static final class LatencyHistogramsPercentile {
        static double of(ScopeStats s, double p) {
            return p == 50
                    ? s.all().p50()
                    : p == 90
                            ? s.all().p90()
                            : p == 99 ? s.all().p99() : s.all().p999();
        }
    }
}
