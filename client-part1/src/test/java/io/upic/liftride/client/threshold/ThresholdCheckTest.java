package io.upic.liftride.client.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ThresholdCheckTest {

    /** p99 = 3.2 ms, mean 1.5 ms, max 80 ms, 2 failed, 4,000 req/s; intended metrics unknown. */
    private static final MetricSource MEASURED = m -> {
        if (m.intended()) {
            return OptionalDouble.empty();
        }
        return switch (m.kind()) {
            case PERCENTILE -> OptionalDouble.of(m.percentile() >= 99 ? 3_200_000 : 900_000);
            case MEAN -> OptionalDouble.of(1_500_000);
            case MAX -> OptionalDouble.of(80_000_000);
            case FAILED -> OptionalDouble.of(2);
            case THROUGHPUT -> OptionalDouble.of(4_000);
        };
    };

    private static List<Threshold> parse(String... exprs) {
        return List.of(exprs).stream().map(Threshold::parse).toList();
    }

    @Test
    void eachThresholdGetsItsMeasuredValueAndVerdictInOrder() {
        ThresholdCheck c = ThresholdCheck.of(
                parse("p99<5ms", "mean<1ms", "max<2s", "failed==0", "throughput>3000", "p50<=0.9ms"), MEASURED);
        assertEquals(
                List.of(true, false, true, false, true, true),
                c.results().stream().map(ThresholdResult::passed).toList());
        assertEquals(3.2, c.results().get(0).displayValue(), 1e-9);
        assertEquals(2.0, c.results().get(3).displayValue());
        assertFalse(c.passed());
    }

    @Test
    void noThresholdsPass() {
        assertTrue(ThresholdCheck.of(List.of(), MEASURED).passed());
        assertTrue(ThresholdCheck.NONE.passed());
    }

    @Test
    void aMetricTheSourceDoesNotMeasureFails() {
        ThresholdResult r = ThresholdResult.check(Threshold.parse("intended.p99<1s"), MEASURED);
        assertFalse(r.passed());
        assertTrue(Double.isNaN(r.measured()));
        assertEquals("FAIL  intended.p99<1s  (not measured)", r.line());
    }

    @Test
    void linesNameTheExpressionTheVerdictAndTheValue() {
        ThresholdCheck c = ThresholdCheck.of(parse("p99<5ms", "failed==0", "throughput>3000"), MEASURED);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        c.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), "Thresholds");
        assertEquals(
                String.join(
                        System.lineSeparator(),
                        "Thresholds: 2 of 3 passed (exit code 3 unless a request failed)",
                        "  PASS  p99<5ms  (measured 3.200 ms)",
                        "  FAIL  failed==0  (measured 2 requests)",
                        "  PASS  throughput>3000  (measured 4,000.0 req/s)",
                        ""),
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void nothingIsPrintedWithoutThresholds() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ThresholdCheck.NONE.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), "Thresholds");
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void clientPart1MeasuresMeanFailedAndThroughputFromItsCounters() {
        RunResult r = Fixtures.run(Fixtures.phase()
                        .requests(new Requests(100, 98, 2, 0, 4, 104))
                        .latencyNanosSum(104 * 2_000_000L)
                        .failuresByCause(Map.of(503, 2L))
                        .build())
                .wallNanos(2_000_000_000L)
                .build();
        ResultMetrics m = new ResultMetrics(r);
        assertEquals(2_000_000.0, m.value(Metric.MEAN).orElseThrow());
        assertEquals(2.0, m.value(Metric.FAILED).orElseThrow());
        assertEquals(49.0, m.value(Metric.THROUGHPUT).orElseThrow());
        assertTrue(m.value(Metric.percentile(99)).isEmpty());
        assertTrue(m.value(Metric.MAX).isEmpty());
        assertTrue(m.value(Metric.MEAN.fromIntended()).isEmpty());
    }

    @Test
    void clientPart1RefusesPercentileMaxAndIntendedThresholdsSayingWhy() {
        MetricCatalog part1 = MetricCatalog.clientPart1();
        assertNull(part1.unmeasurable(parse("mean<10ms", "failed==0", "throughput>5000")));
        assertEquals(
                "--threshold p99<50ms cannot be checked: client-part1 measures no percentiles or maximum (only mean,"
                        + " failed, throughput); use client-part2",
                part1.unmeasurable(parse("mean<10ms", "p99<50ms")));
        assertTrue(part1.unmeasurable(parse("max<2s")).startsWith("--threshold max<2s cannot be checked"));
        assertTrue(part1.unmeasurable(parse("intended.mean<2s")).contains("no latency from the intended send"));
    }

    @Test
    void histogramsMeasureEverythingAndTheIntendedLatencyOnlyInTheOpenModel() {
        List<Threshold> all = parse("p99.99<1s", "max<2s", "mean<1ms", "failed==0", "throughput>1");
        assertNull(MetricCatalog.histograms(false).unmeasurable(all));
        assertEquals(
                "--threshold intended.p99<5ms cannot be checked: intended.p99 needs --rate: the latency from the"
                        + " intended send exists only in the open model",
                MetricCatalog.histograms(false).unmeasurable(parse("intended.p99<5ms")));
        assertNull(MetricCatalog.histograms(true).unmeasurable(parse("intended.p99<5ms")));
    }
}
