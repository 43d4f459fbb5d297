package io.upic.liftride.client.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.upic.liftride.client.engine.LiveFigures;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.Shard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class LiveMetricsTest {

    private static final int CAUSES = LiveFigures.Cause.values().length;
    private static final int BUCKETS = LiveFigures.LATENCY_BOUNDS_NANOS.length + 1;

    /** 10 sent: 6 successful, 1 failed on 503 and 1 on a timeout, 2 in flight; 7 retries; 8 latencies, 12 s. */
    private static LiveFigures peak() {
        return peak(Operation.WRITE_NEW_LIFT_RIDE, 10);
    }

    /** As {@link #peak()}, of {@code op}, with {@code sent} requests sent. */
    private static LiveFigures peak(Operation op, long sent) {
        long[] causes = new long[CAUSES];
        causes[LiveFigures.Cause.STATUS_5XX.ordinal()] = 1;
        causes[LiveFigures.Cause.TIMEOUT.ordinal()] = 1;
        long[] buckets = new long[BUCKETS];
        buckets[LiveFigures.bucketOf(1_000_000)] = 5; // five at 1 ms
        buckets[LiveFigures.bucketOf(2_000_000)] = 2; // two at 2 ms
        buckets[BUCKETS - 1] = 1; // one above 10 s (the timeout's retries)
        return new LiveFigures(1, "peak", op, sent, 6, 2, 7, causes, buckets, 12_000_000_000L);
    }

    @Test
    void aScrapeShowsEachFigureUnderItsNameWithRunShardPhaseAndOperationLabels() throws IOException {
        LiveMetrics metrics = new LiveMetrics();
        metrics.watch("00000000000000ab", null, new Shard(2, 3), () -> List.of(peak()));
        Map<String, Double> samples = samples(metrics);
        String labels = "{op=\"writeNewLiftRide\",phase=\"peak\",run_id=\"00000000000000ab\",shard=\"2/3\"}";
        assertEquals(10.0, samples.get("liftride_client_requests_sent_total" + labels));
        assertEquals(6.0, samples.get("liftride_client_requests_successful_total" + labels));
        assertEquals(7.0, samples.get("liftride_client_retries_total" + labels));
        assertEquals(2.0, samples.get("liftride_client_requests_in_flight" + labels));
        String failed = "liftride_client_requests_failed_total{cause=\"%s\",op=\"writeNewLiftRide\",phase=\"peak\","
                + "run_id=\"00000000000000ab\""
                + ",shard=\"2/3\"}";
        assertEquals(1.0, samples.get(failed.formatted("5xx")));
        assertEquals(1.0, samples.get(failed.formatted("timeout")));
        assertEquals(0.0, samples.get(failed.formatted("4xx")), "every cause shows, zeros too");
        assertEquals(0.0, samples.get(failed.formatted("connection")));
        String histogram = "liftride_client_request_latency_seconds";
        assertEquals(8.0, samples.get(histogram + "_count" + labels));
        assertEquals(12.0, samples.get(histogram + "_sum" + labels), 1e-9);
        String bucket = histogram + "_bucket{op=\"writeNewLiftRide\",phase=\"peak\",run_id=\"00000000000000ab\","
                + "shard=\"2/3\",le=\"%s\"}";
        assertEquals(0.0, samples.get(bucket.formatted("7.5E-4")));
        assertEquals(5.0, samples.get(bucket.formatted("0.001")), "cumulative from here");
        assertEquals(5.0, samples.get(bucket.formatted("0.0015")));
        assertEquals(7.0, samples.get(bucket.formatted("0.002")));
        assertEquals(7.0, samples.get(bucket.formatted("10.0")));
        assertEquals(8.0, samples.get(bucket.formatted("+Inf")));
    }

    @Test
    void eachScrapeReadsTheFiguresAnewAndAFinishedRunKeepsItsLast() throws IOException {
        LiveMetrics metrics = new LiveMetrics();
        assertTrue(samples(metrics).isEmpty(), "no run, no series");
        AtomicReference<List<LiveFigures>> first = new AtomicReference<>(List.of());
        metrics.watch("0000000000000001", null, Shard.WHOLE, first::get);
        assertTrue(samples(metrics).isEmpty(), "a run whose workers are not created yet has no series");
        first.set(List.of(peak()));
        metrics.watch("0000000000000002", null, Shard.WHOLE, () -> List.of(peak()));
        Map<String, Double> samples = samples(metrics);
        for (String run : List.of("0000000000000001", "0000000000000002")) {
            assertEquals(
                    6.0,
                    samples.get("liftride_client_requests_successful_total{op=\"writeNewLiftRide\",phase=\"peak\","
                            + "run_id=\"" + run
                            + "\",shard=\"1/1\"}"),
                    run);
        }
    }

    @Test
    void shardsGivenOneStartAtShareEachRunsIdAndKeepTheirShard() throws IOException {
        Instant startAt = Instant.parse("2026-12-01T09:00:00Z");
        LiveMetrics shard1 = new LiveMetrics();
        LiveMetrics shard2 = new LiveMetrics();
        for (int run = 0; run < 2; run++) {
            shard1.watch("00000000000000a" + run, startAt, new Shard(1, 2), () -> List.of(peak()));
            shard2.watch("00000000000000b" + run, startAt, new Shard(2, 2), () -> List.of(peak()));
        }
        String series = "liftride_client_requests_sent_total{op=\"writeNewLiftRide\",phase=\"peak\","
                + "run_id=\"2026-12-01T09:00:00Z/%d\","
                + "shard=\"%d/2\"}";
        for (int run = 1; run <= 2; run++) {
            assertEquals(10.0, samples(shard1).get(series.formatted(run, 1)), "shard 1, run " + run);
            assertEquals(10.0, samples(shard2).get(series.formatted(run, 2)), "shard 2, run " + run);
        }
        assertFalse(text(shard1).contains("00000000000000a"), "the process's own id gives way to the shared one");
    }

    @Test
    void eachOperationOfAMixHasItsOwnSeriesInItsPhase() throws IOException {
        LiveMetrics metrics = new LiveMetrics();
        metrics.watch(
                "0000000000000001",
                null,
                Shard.WHOLE,
                () -> List.of(peak(Operation.WRITE_NEW_LIFT_RIDE, 10), peak(Operation.GET_SKIER_DAY_VERTICAL, 4)));
        Map<String, Double> samples = samples(metrics);
        String sent = "liftride_client_requests_sent_total{op=\"%s\",phase=\"peak\",run_id=\"0000000000000001\","
                + "shard=\"1/1\"}";
        assertEquals(10.0, samples.get(sent.formatted("writeNewLiftRide")), samples.toString());
        assertEquals(4.0, samples.get(sent.formatted("getSkierDayVertical")), samples.toString());
        String histogram = "liftride_client_request_latency_seconds_count{op=\"getSkierDayVertical\",phase=\"peak\","
                + "run_id=\"0000000000000001\",shard=\"1/1\"}";
        assertEquals(8.0, samples.get(histogram), samples.toString());
    }

    @Test
    void everyHelpTextSaysTheSummaryIsTheAccount() throws IOException {
        LiveMetrics metrics = new LiveMetrics();
        metrics.watch("0000000000000001", null, Shard.WHOLE, () -> List.of(peak()));
        List<String> help =
                text(metrics).lines().filter(l -> l.startsWith("# HELP")).toList();
        assertEquals(6, help.size(), String.join("\n", help));
        for (String line : help) {
            assertTrue(line.endsWith("(live view; the run's summary is the account)"), line);
        }
        assertFalse(text(metrics).contains("NaN"));
    }

    static String text(LiveMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.snapshots());
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Every sample line as name{labels} to value. */
    static Map<String, Double> samples(LiveMetrics metrics) throws IOException {
        return text(metrics)
                .lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .collect(Collectors.toMap(
                        l -> l.substring(0, l.lastIndexOf(' ')),
                        l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))));
    }
}
