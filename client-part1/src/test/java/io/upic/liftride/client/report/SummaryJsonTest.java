package io.upic.liftride.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.RunHooks;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.Abort;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class SummaryJsonTest {

    /** The keys summary.json promises, in the order written. */
    private static final List<String> ISSUE_KEYS = List.of(
            "plan",
            "threads",
            "transport",
            "offeredRate",
            "planned",
            "successful",
            "failed",
            "notSent",
            "retries",
            "wallSeconds",
            "throughput",
            "phases",
            "latencyMs",
            "latencyFromIntendedMs",
            "thresholds",
            "server");

    private static RunReport report(boolean serverRead) {
        PhaseResult startup = Fixtures.phase()
                .name("startup")
                .threads(8)
                .requests(new Requests(1_000, 998, 2, 0, 10, 1_010))
                .latencyNanosSum(1_010 * 1_500_000L)
                .failuresByCause(Map.of(503, 2L))
                .startNanos(0)
                .endNanos(2_000_000_000L)
                .build();
        PhaseResult peak = Fixtures.phase()
                .index(1)
                .requests(new Requests(4_000, 4_000, 0, 0, 0, 4_000))
                .latencyNanosSum(4_000 * 1_000_000L)
                .startNanos(1_000_000_000L)
                .endNanos(3_000_000_000L)
                .build();
        RunResult r = Fixtures.run(startup, peak)
                .startEpochMillis(1_795_000_000_000L)
                .wallNanos(4_000_000_000L)
                .build();
        return Fixtures.report(r)
                .reconciliation(Reconciliation.of(
                        r,
                        OptionalLong.of(100),
                        serverRead ? OptionalLong.of(100 + r.requests().successful()) : OptionalLong.empty(),
                        serverRead ? null : "after the run: timeout"))
                .build();
    }

    private static RunSummary summary(RunReport report, String... thresholds) {
        RunReport withThresholds = report.toBuilder()
                .config(report.config()
                        .withChecks(report.config()
                                .checks()
                                .withThresholds(List.of(thresholds).stream()
                                        .map(Threshold::parse)
                                        .toList())))
                .build();
        return RunVerdict.judge(withThresholds, RunHooks.NONE.metrics(withThresholds), RunHooks.NONE.clientName(), null)
                .summary();
    }

    @Test
    void clientPart1sSummaryHasEveryIssueKeyAndValidatesAgainstTheSchema() {
        String json = SummaryJson.toJson(summary(report(true), "mean<2ms", "failed==0"));
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        List<String> keys = new ArrayList<>();
        t.propertyNames().forEach(keys::add);
        assertTrue(keys.containsAll(ISSUE_KEYS), keys.toString());
        assertEquals(ISSUE_KEYS, keys.stream().filter(ISSUE_KEYS::contains).toList(), "the issue's order is kept");
        assertEquals(1, t.get("schemaVersion").asInt());
        assertEquals("client-part1", t.get("client").asString());
        assertEquals("2026-11-18T11:06:40Z", t.get("startTime").asString());
        assertEquals("2026-11-18T11:06:44Z", t.get("endTime").asString());
        assertTrue(t.get("offeredRate").isNull());
        assertTrue(t.get("shard").isNull());
        assertTrue(t.get("latencyFromIntendedMs").isNull());
        assertEquals(5_000, t.get("planned").asLong());
        assertEquals(4_998, t.get("successful").asLong());
        assertEquals(2, t.get("failed").asLong());
        assertEquals(4.0, t.get("wallSeconds").asDouble());
        assertEquals(4_998 / 4.0, t.get("throughput").asDouble(), 1e-9);
    }

    @Test
    void thePredictionCarriesTheModelItsNumbersAndItsInputsAndValidates() {
        RunReport r = report(true);
        Baseline.Result baseline = Fixtures.baseline().meanLatencyNanos(300_000).build();
        Prediction naive = LittlesLaw.predict(r.plan(), baseline);
        Prediction model = LittlesLaw.mva(
                r.plan(),
                baseline.meanLatencyNanos(),
                new Prediction.Network(2, 100_000, 200_000, CpuScope.EMBEDDED_SERVER, "test"));
        String json = SummaryJson.toJson(summary(
                r.toBuilder().baseline(baseline).prediction(naive).model(model).build()));
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode p = SummarySchema.tree(json).get("prediction");
        List<String> keys = new ArrayList<>();
        p.propertyNames().forEach(keys::add);
        assertEquals(List.of("model", "wallSeconds", "throughput", "wNanos", "dNanos", "cores", "delayNanos"), keys);
        assertEquals("MVA closed network", p.get("model").asString());
        assertEquals(model.wallNanos() / 1e9, p.get("wallSeconds").asDouble(), 1e-12);
        assertEquals(model.throughputPerSecond(), p.get("throughput").asDouble(), 1e-9);
        assertEquals(300_000, p.get("wNanos").asDouble(), 1e-9);
        assertEquals(100_000, p.get("dNanos").asDouble(), 1e-9);
        assertEquals(2, p.get("cores").asInt());
        assertEquals(200_000, p.get("delayNanos").asDouble(), 1e-9); // W - D
        // without D: the naive prediction, the network's inputs null
        String naiveJson = SummaryJson.toJson(
                summary(r.toBuilder().baseline(baseline).prediction(naive).build()));
        assertEquals(List.of(), SummarySchema.errors(naiveJson), naiveJson);
        JsonNode n = SummarySchema.tree(naiveJson).get("prediction");
        assertEquals("naive N/W", n.get("model").asString());
        assertTrue(
                n.get("dNanos").isNull()
                        && n.get("cores").isNull()
                        && n.get("delayNanos").isNull(),
                n.toString());
        assertTrue(
                SummarySchema.tree(SummaryJson.toJson(summary(r)))
                        .get("prediction")
                        .isNull(),
                "no baseline");
        assertFalse(
                SummarySchema.errors(json.replaceFirst("\"dNanos\"", "\"dMicros\""))
                        .isEmpty(),
                "a renamed key");
    }

    @Test
    void clientPart1sLatencyIsTheMeanAloneTheRestNull() {
        JsonNode l =
                SummarySchema.tree(SummaryJson.toJson(summary(report(true)))).get("latencyMs");
        assertEquals((1_010 * 1.5 + 4_000 * 1.0) / 5_010, l.get("mean").asDouble(), 1e-9);
        for (String k : List.of("p50", "p90", "p99", "p999", "max")) {
            assertTrue(l.get(k).isNull(), k);
        }
    }

    @Test
    void phasesCarryTheIssuesKeys() {
        JsonNode p =
                SummarySchema.tree(SummaryJson.toJson(summary(report(true)))).get("phases");
        assertEquals(2, p.size());
        JsonNode startup = p.get(0);
        List<String> keys = new ArrayList<>();
        startup.propertyNames().forEach(keys::add);
        assertEquals(
                List.of(
                        "name",
                        "threads",
                        "requests",
                        "successful",
                        "failed",
                        "durationSeconds",
                        "throughput",
                        "latencyMs",
                        "latencyFromIntendedMs",
                        "latencyFirstMs"),
                keys);
        assertTrue(startup.get("latencyMs").get("mean").isNumber(), "client-part1 keeps the mean per phase");
        assertTrue(startup.get("latencyMs").get("p99").isNull(), "and no percentile");
        assertTrue(startup.get("latencyFirstMs").isNull());
        assertTrue(startup.get("latencyFromIntendedMs").isNull());
        assertEquals("startup", startup.get("name").asString());
        assertEquals(1_000, startup.get("requests").asLong());
        assertEquals(2.0, startup.get("durationSeconds").asDouble());
        assertEquals(499.0, startup.get("throughput").asDouble());
    }

    @Test
    void anAbortedRunRecordsWhyAndWhenCountsItsSentRequestsAndExitsAsAFailedThreshold() {
        PhaseResult peak = Fixtures.phase()
                .requests(new Requests(5_000, 3_000, 0, 2_000, 0, 3_000))
                .latencyNanosSum(3_000 * 2_000_000L)
                .startNanos(0)
                .endNanos(2_600_000_000L)
                .build();
        RunResult r = Fixtures.run(peak)
                .startEpochMillis(1_795_000_000_000L)
                .wallNanos(2_600_000_000L)
                .stopped(true)
                .build();
        RunReport aborted = Fixtures.report(r)
                .reconciliation(Reconciliation.of(r, OptionalLong.of(100), OptionalLong.of(3_100), null))
                .abort(new Abort(
                        "mean<1ms", "the attempts so far took 6.0 s in all", 2_500_000_000L, 1_795_000_002_500L))
                .build();
        RunReport judged = RunVerdict.judge(
                aborted.toBuilder()
                        .config(aborted.config()
                                .withChecks(
                                        aborted.config().checks().withThresholds(List.of(Threshold.parse("mean<1ms")))))
                        .build(),
                RunHooks.NONE.metrics(aborted),
                RunHooks.NONE.clientName(),
                null);
        String json = SummaryJson.toJson(judged.summary());
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        JsonNode a = t.get("abort");
        assertEquals("mean<1ms", a.get("threshold").asString());
        assertEquals("the attempts so far took 6.0 s in all", a.get("reason").asString());
        assertEquals("2026-11-18T11:06:42.500Z", a.get("time").asString());
        assertEquals(2.5, a.get("afterSeconds").asDouble());
        assertTrue(t.get("stopped").asBoolean());
        assertTrue(t.get("ok").asBoolean(), "its 3,000 requests sent all succeeded and reconcile");
        assertTrue(SummarySchema.tree(SummaryJson.toJson(summary(report(true))))
                .get("abort")
                .isNull());

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(ThresholdCheck.EXIT_CODE, RunVerdict.conclude(out, out, null, List.of(judged), 0));
        assertTrue(
                printed.toString(StandardCharsets.UTF_8)
                        .contains("  Stopped by --abort-on-fail 2.5 s into the run: mean<1ms can no longer hold: the"
                                + " attempts so far took 6.0 s in all"),
                printed.toString(StandardCharsets.UTF_8));
    }

    @Test
    void thresholdsAndTheServerReconciliationAreRecorded() {
        JsonNode t = SummarySchema.tree(SummaryJson.toJson(summary(report(true), "mean<1ms", "failed<=2")));
        JsonNode first = t.get("thresholds").get(0);
        assertEquals("mean<1ms", first.get("expr").asString());
        assertEquals("ms", first.get("unit").asString());
        assertFalse(first.get("passed").asBoolean());
        assertTrue(t.get("thresholds").get(1).get("passed").asBoolean());
        assertFalse(t.get("thresholdsPassed").asBoolean());
        JsonNode s = t.get("server");
        assertTrue(s.get("checked").asBoolean());
        assertEquals(100, s.get("ridesStoredBefore").asLong());
        assertEquals(4_998, s.get("delta").asLong());
        assertTrue(s.get("reconciled").asBoolean());
        assertTrue(s.get("note").isNull());
    }

    @Test
    void anUncheckedServerSideSaysWhyAndStaysValid() {
        String json = SummaryJson.toJson(summary(report(false)));
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode s = SummarySchema.tree(json).get("server");
        assertFalse(s.get("checked").asBoolean());
        assertTrue(s.get("ridesStoredAfter").isNull());
        assertTrue(s.get("reconciled").isNull());
        assertEquals("after the run: timeout", s.get("note").asString());
    }

    @Test
    void aRunWithoutAttemptsWritesNullNotNaN() {
        RunResult empty = Fixtures.run(Fixtures.phase()
                        .started(false)
                        .requests(new Requests(10, 0, 0, 10, 0, 0))
                        .build())
                .stopped(true)
                .build();
        String json = SummaryJson.toJson(summary(Fixtures.report(empty).build(), "mean<1ms"));
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        assertTrue(t.get("latencyMs").get("mean").isNull());
        assertTrue(t.get("thresholds").get(0).get("value").isNull());
        assertFalse(t.get("ok").asBoolean());
    }

    /** A source that measures its latency records whole, as client-part2's histograms do. */
    private interface MeasuredSource extends MetricSource, RunSummary.Measured {
        @Override
        default OptionalDouble value(Metric m) {
            return OptionalDouble.of(1_000_000);
        }

        @Override
        default RunSummary.Latency operationLatency(io.upic.liftride.client.http.Operation op) {
            return null;
        }
    }

    private static RunSummary.Latency ms(double v) {
        return new RunSummary.Latency(v, v, v, v, v, v, 1L, v, v);
    }

    @Test
    void anIntendedSourceFillsLatencyFromIntended() {
        RunReport r = report(true);
        MeasuredSource source = (phase, which) -> ms(which == RunSummary.Attempts.INTENDED ? 9 : 1);
        RunSummary s = RunSummary.of(r, source, io.upic.liftride.client.threshold.ThresholdCheck.NONE, "x", 3000.0);
        assertEquals(9.0, s.latencyFromIntendedMs().p99());
        assertEquals(1.0, s.latencyMs().p999());
        assertEquals(3000.0, s.offeredRate());
        assertTrue(Metric.MEAN.fromIntended().intended());
    }

    @Test
    void aSourceWithPhasesFillsEachPhasesLatencies() {
        RunReport r = report(true);
        MeasuredSource source =
                (phase, which) -> which == RunSummary.Attempts.INTENDED ? null : ms(phase < 0 ? 1 : phase + 2);
        RunSummary s =
                RunSummary.of(r, source, io.upic.liftride.client.threshold.ThresholdCheck.NONE, "client-part2", null);
        assertEquals(2.0, s.phases().get(0).latencyMs().p99());
        assertEquals(3.0, s.phases().get(1).latencyMs().max());
        assertEquals(null, s.phases().get(1).latencyFromIntendedMs(), "no intended send in the closed model");
        String json = SummaryJson.toJson(s);
        assertEquals(List.of(), SummarySchema.errors(json), json);
    }

    @Test
    void theSchemaRejectsAMissingKeyAWrongTypeAndAnUnknownKey() {
        String json = SummaryJson.toJson(summary(report(true)));
        assertFalse(
                SummarySchema.errors(json.replaceFirst("\"notSent\": 0,", "")).isEmpty(), "missing key");
        assertFalse(SummarySchema.errors(json.replaceFirst("\"threads\": 32", "\"threads\": \"32\""))
                .isEmpty());
        assertFalse(SummarySchema.errors(json.replaceFirst("\"plan\":", "\"surprise\": 1, \"plan\":"))
                .isEmpty());
        assertFalse(SummarySchema.errors(json.replaceFirst("\"startTime\": \"[^\"]*\"", "\"startTime\": \"yesterday\""))
                .isEmpty());
    }

    @Test
    void aSweepIsOneDocumentWithEveryRunAndValidates(@TempDir Path dir) throws Exception {
        RunSummary one = summary(report(true));
        Path file = dir.resolve("sub/summary.json");
        SummaryJson.write(file, List.of(one, one.toBuilder().threads(64).build()));
        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertEquals(List.of(), SummarySchema.errors(json), json);
        JsonNode t = SummarySchema.tree(json);
        assertEquals(2, t.get("runs").size());
        assertEquals(64, t.get("runs").get(1).get("threads").asInt());
        assertFalse(Files.exists(dir.resolve("sub/summary.json.tmp")));
    }
}
