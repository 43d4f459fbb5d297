package io.upic.liftride.client.part2.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;

/**
 * The sweep charts with the numbers of a shared 2-core machine: the naive N / W line 6-25x above the
 * measurement, the bounded one near it. The PNGs stay in target/chart-samples/sweep/ for a look.
 */
class SweepChartsTest {

    private static List<SweepCharts.Point> sharedTwoCoreSweep(boolean clientOnly) {
        return List.of(
                new SweepCharts.Point(32, 16.4, 4.7, 10_975, 38_000, 12.9, 13_950, clientOnly, 2.9, 2.5, 11),
                new SweepCharts.Point(64, 14.2, 2.4, 12_672, 75_883, 12.8, 14_060, clientOnly, 5.0, 4.4, 19),
                new SweepCharts.Point(128, 15.0, 1.2, 12_000, 150_000, 12.8, 14_060, clientOnly, 10.4, 9.0, 40),
                new SweepCharts.Point(256, 15.7, 0.6, 11_465, 290_000, 12.9, 13_950, clientOnly, 21.9, 19.0, 80));
    }

    @Test
    void aNaiveLineFarAboveTheRestTurnsTheThroughputAxisLogarithmic() throws Exception {
        List<SweepCharts.Point> points = sharedTwoCoreSweep(false);
        CategoryChart throughput = SweepCharts.throughput("fall2021, synthetic", points);
        assertTrue(throughput.getStyler().isYAxisLogarithmic());
        assertTrue(
                throughput
                        .getSeriesMap()
                        .keySet()
                        .containsAll(List.of("measured", SweepCharts.NAIVE, SweepCharts.BOUNDED)),
                throughput.getSeriesMap().keySet().toString());
        assertEquals(5_000, throughput.getStyler().getYAxisMin(), 1e-9); // 0.8 x 10,975 = 8,780, down to 5 x 10^3
        CategoryChart wall = SweepCharts.wallTime("fall2021, synthetic", points);
        assertEquals(3, wall.getSeriesMap().size());

        Path dir = Path.of("target", "chart-samples", "sweep");
        Files.createDirectories(dir);
        for (RunCharts.ChartFile f : SweepCharts.write(dir, "fall2021, 20,000 skiers, synthetic", points)) {
            BufferedImage image = ImageIO.read(f.file().toFile());
            assertNotNull(image, f.file() + " decodes");
            assertEquals(ChartStyle.WIDTH, image.getWidth());
        }
    }

    @Test
    void closePredictionsKeepALinearAxisAndARemoteServerLabelsTheBoundClientOnly() {
        List<SweepCharts.Point> points = List.of(
                new SweepCharts.Point(4, 2.0, 1.5, 900, 1_200, 1.8, 1_000, true, 1, 1, 2),
                new SweepCharts.Point(8, 1.2, 0.8, 1_500, 2_250, 1.0, 1_800, true, 1, 1, 2));
        CategoryChart throughput = SweepCharts.throughput("tiny", points);
        assertFalse(throughput.getStyler().isYAxisLogarithmic());
        assertEquals(0.0, throughput.getStyler().getYAxisMin(), 0);
        assertTrue(throughput.getSeriesMap().containsKey(SweepCharts.BOUNDED_CLIENT));
    }

    @Test
    void withoutABaselineOnlyTheMeasurementIsDrawn() {
        List<SweepCharts.Point> points = List.of(
                new SweepCharts.Point(4, 2.0, Double.NaN, 900, Double.NaN, Double.NaN, Double.NaN, false, 1, 1, 2),
                new SweepCharts.Point(8, 1.2, Double.NaN, 1_500, Double.NaN, Double.NaN, Double.NaN, false, 1, 1, 2));
        assertEquals(
                List.of("measured"),
                List.copyOf(
                        SweepCharts.throughput("none", points).getSeriesMap().keySet()));
        assertEquals(
                List.of("measured"),
                List.copyOf(SweepCharts.wallTime("none", points).getSeriesMap().keySet()));
    }

    @Test
    void niceBottomIsOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(5_000, SweepCharts.niceBottom(8_780), 1e-9);
        assertEquals(2_000, SweepCharts.niceBottom(2_000), 1e-9);
        assertEquals(1_000, SweepCharts.niceBottom(1_999), 1e-9);
    }
}
