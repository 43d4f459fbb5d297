package io.upic.liftride.client.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThresholdTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "p99<50ms       | p99        | LESS             | 50000000",
                "p99.9<200ms    | p99.9      | LESS             | 200000000",
                "p99.99<=1s     | p99.99     | LESS_OR_EQUAL    | 1000000000",
                "p50>=250us     | p50        | GREATER_OR_EQUAL | 250000",
                "p90<900µs      | p90        | LESS             | 900000",
                "p100<1500ns    | p100       | LESS             | 1500",
                "mean<10ms      | mean       | LESS             | 10000000",
                "max<2s         | max        | LESS             | 2000000000",
                "max<0.5s       | max        | LESS             | 500000000",
                "failed==0      | failed     | EQUAL            | 0",
                "failed<=12     | failed     | LESS_OR_EQUAL    | 12",
                "throughput>5000 | throughput | GREATER         | 5000",
                "throughput>=2500.5 | throughput | GREATER_OR_EQUAL | 2500.5",
                "intended.p99<100ms | intended.p99 | LESS      | 100000000",
                "intended.mean<3ms | intended.mean | LESS      | 3000000",
                "'  p99 < 50 ms  ' | p99       | LESS             | 50000000",
            })
    void parsesEveryDocumentedFormIntoMetricOperatorAndBoundInNativeUnits(
            String text, String metric, Comparison op, double bound) {
        Threshold t = Threshold.parse(text);
        assertEquals(metric, t.metric().label());
        assertEquals(op, t.op());
        assertEquals(bound, t.bound(), bound * 1e-12);
        assertEquals(text.trim(), t.expr());
    }

    @Test
    void intendedSelectsTheLatencyFromTheIntendedSend() {
        assertTrue(Threshold.parse("intended.p99<1ms").metric().intended());
        assertFalse(Threshold.parse("p99<1ms").metric().intended());
        assertEquals(99.0, Threshold.parse("intended.p99<1ms").metric().percentile());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "p99              | no operator",
                "p99=50ms         | no operator",
                "<50ms            | no metric before the operator",
                "p99x<5ms         | unknown metric p99x",
                "median<5ms       | unknown metric median",
                "P99<5ms          | unknown metric P99",
                "p999<5ms         | p999 is no percentile in (0, 100] (the 99.9th is p99.9)",
                "p0<5ms           | p0 is no percentile in (0, 100]",
                "p99<50           | a latency bound needs a unit: ns, us, µs, ms or s",
                "p99<50min        | a latency bound is a number and a unit (ns, us, µs, ms, s), not 50min",
                "p99<-5ms         | a latency bound is a number and a unit",
                "p99<             | no value after the operator",
                "mean<fast        | a latency bound is a number and a unit",
                "failed==0.5      | failed counts requests: a whole number, not 0.5",
                "failed==0ms      | failed is bounded by a plain number (requests), not 0ms",
                "throughput>5k    | throughput is bounded by a plain number (req/s), not 5k",
                "intended.failed==0 | intended. goes before a latency (pN, mean, max), not failed",
                "intended.throughput>1 | intended. goes before a latency",
                "p99<<5ms         | a latency bound is a number and a unit",
            })
    void rejectsAMalformedExpressionNamingTheProblem(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(text));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void holdsComparesTheMeasuredValueWithTheBound() {
        Threshold lt = Threshold.parse("p99<50ms");
        assertTrue(lt.holds(49_999_999));
        assertFalse(lt.holds(50_000_000));
        Threshold le = Threshold.parse("p99<=50ms");
        assertTrue(le.holds(50_000_000));
        assertFalse(le.holds(50_000_001));
        Threshold gt = Threshold.parse("throughput>5000");
        assertTrue(gt.holds(5000.1));
        assertFalse(gt.holds(5000));
        Threshold ge = Threshold.parse("throughput>=5000");
        assertTrue(ge.holds(5000));
        Threshold eq = Threshold.parse("failed==0");
        assertTrue(eq.holds(0));
        assertFalse(eq.holds(1));
    }

    @Test
    void anUnknownValueNeverHolds() {
        assertFalse(Threshold.parse("mean<10ms").holds(Double.NaN));
        assertFalse(Threshold.parse("mean>=0ms").holds(Double.NaN));
    }

    @Test
    void aMetricRejectsInconsistentParts() {
        assertThrows(IllegalArgumentException.class, () -> Metric.percentile(0));
        assertThrows(IllegalArgumentException.class, () -> Metric.percentile(100.01));
        assertThrows(IllegalArgumentException.class, () -> new Metric(false, Metric.Kind.MEAN, 50));
        assertThrows(IllegalArgumentException.class, Metric.FAILED::fromIntended);
        assertEquals("p99.9", Metric.percentile(99.9).label());
        assertEquals("intended.max", Metric.MAX.fromIntended().label());
    }
}
