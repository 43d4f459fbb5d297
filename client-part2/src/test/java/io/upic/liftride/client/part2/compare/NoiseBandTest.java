package io.upic.liftride.client.part2.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.threshold.Metric;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NoiseBandTest {

    @Test
    void withoutAValueEveryMetricGetsTheDefaultTenPercent() {
        NoiseBand b = NoiseBand.parse(List.of());
        assertEquals(0.10, b.of(Metric.percentile(99)), 1e-12);
        assertEquals(0.10, b.of(Metric.THROUGHPUT), 1e-12);
        assertEquals("10% on every metric", b.describe());
    }

    @Test
    void aPerMetricBandOverridesTheBandOfEveryMetric() {
        NoiseBand b = NoiseBand.parse(List.of("5%", "p99=10%,max=off", " intended.p99.9 = 2.5% "));
        assertEquals(0.05, b.of(Metric.MEAN), 1e-12);
        assertEquals(0.10, b.of(Metric.percentile(99)), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, b.of(Metric.MAX));
        assertEquals(0.025, b.of(Metric.percentile(99.9).fromIntended()), 1e-12);
        assertEquals(0.05, b.of(Metric.percentile(99.9)), 1e-12, "intended.p99.9 does not set p99.9");
        assertEquals("5% on every metric; p99 10%, max off, intended.p99.9 2.5%", b.describe());
    }

    @Test
    void aZeroBandIsAllowed() {
        assertEquals(0, NoiseBand.parse(List.of("0%")).of(Metric.FAILED));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "5          | a band is a percentage: 5%, not 5",
                "five%      | not a percentage (N%) or off: five%",
                "-5%        | not a percentage (N%) or off: -5%",
                "p99=       | an empty band in p99=",
                "=5%        | no metric before '='",
                "p99x=5%    | unknown metric p99x",
                "p95=5%     | compare shows no p95 (a summary has no such number)",
                "intended.failed=5% | intended. goes before a latency",
                "5%,6%      | the band of every metric is given twice",
                "p99=5%,p99=off | the band of p99 is given twice",
                "5%,        | an empty band in the list 5%,",
            })
    void aBadFormIsRefusedSayingWhy(String value, String why) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NoiseBand.parse(List.of(value)));
        assertTrue(e.getMessage().startsWith(why), e.getMessage());
    }

    @Test
    void theSameMetricInTwoRepeatedValuesIsRefusedToo() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NoiseBand.parse(List.of("p99=5%", "p99=10%")));
        assertEquals("the band of p99 is given twice", e.getMessage());
    }

    @Test
    void bandsAreWrittenBackAsTyped() {
        assertEquals("5%", NoiseBand.text(0.05));
        assertEquals("12.5%", NoiseBand.text(0.125));
        assertEquals("off", NoiseBand.text(Double.POSITIVE_INFINITY));
    }
}
