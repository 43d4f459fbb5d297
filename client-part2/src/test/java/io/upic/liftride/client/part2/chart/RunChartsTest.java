package io.upic.liftride.client.part2.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.part2.csv.AttemptChunk;
import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.part2.metrics.RunMetrics;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.part2.metrics.WorkerRecorder;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

/**
 * The run charts from synthetic data with what a clean test run lacks: failures, retries, a long run.
 * The PNGs stay in target/chart-samples/ for a look.
 */
class RunChartsTest {

    private static final long S = 1_000_000_000L;

    @Test
    void failuresRetriesAndALongRunDrawValidChartsWithFailuresMarked() throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        ChunkPool pool = new ChunkPool(64, 16);
        WorkerRecorder[] workers = {
            new WorkerRecorder(0, 0, pool), new WorkerRecorder(1, 0, pool), new WorkerRecorder(2, 0, pool)
        };
        TimeBuckets seconds = new TimeBuckets();
        seconds.setOrigin(0);
        long[][] phaseSpan = {{0, 60 * S}, {20 * S, 250 * S}, {230 * S, 300 * S}};
        long failedAttempts = 0;
        for (int k = 0; k < 3; k++) {
            for (long t = phaseSpan[k][0]; t < phaseSpan[k][1]; t += 2_000_000) {
                long latency = (long) (1_000_000 * Math.exp(random.nextGaussian() * 0.5))
                        + (t > 120 * S && t < 130 * S ? 20_000_000 : 0);
                boolean fail = t > 140 * S && t < 145 * S && random.nextInt(10) == 0;
                int code = fail ? 503 : 201;
                workers[k].onAttempt(0, t, latency, code, 1);
                seconds.add(t, (int) (latency / 1000), code);
                if (fail) {
                    failedAttempts++;
                    workers[k].onAttempt(0, t + latency, 900_000, 201, 2);
                    seconds.add(t + latency, 900, 201);
                }
                AttemptChunk c = pool.poll(); // no writer here: recycle what the recorders hand over
                if (c != null) {
                    pool.release(c);
                }
            }
        }
        RunResult result = Fixtures.run(
                        phase(0, "startup", 16, phaseSpan[0]),
                        phase(1, "peak", 64, phaseSpan[1]),
                        phase(2, "cooldown", 16, phaseSpan[2]))
                .numThreads(64)
                .failuresByCause(Map.of(AttemptCodes.SUCCESS, 0L))
                .wallNanos(300 * S)
                .build();
        RunMetrics metrics = RunMetrics.merge(List.of(workers), result);

        XYChart throughput = RunCharts.throughputOverTime(
                "64 threads, synthetic", result, Timeline.of(seconds, result), seconds.totalFailed());
        assertTrue(
                throughput.getSeriesMap().containsKey("failed attempts per s"), "failures are a series of their own");
        assertTrue(
                throughput
                        .getTitle()
                        .contains(String.format(java.util.Locale.US, "%,d failed attempts", failedAttempts)),
                throughput.getTitle());
        XYChart percentiles = RunCharts.percentiles("64 threads, synthetic", metrics);
        assertTrue(
                percentiles.getSeriesMap().containsKey("whole run, first attempts"),
                "retries make first attempts differ");

        Path dir = Path.of("target", "chart-samples");
        Files.createDirectories(dir);
        List<RunCharts.ChartFile> files = RunCharts.write(dir, "64 threads, synthetic", result, seconds, metrics);
        assertEquals(3, files.size());
        for (RunCharts.ChartFile f : files) {
            BufferedImage image = ImageIO.read(f.file().toFile());
            assertNotNull(image, f.file() + " decodes");
            assertEquals(ChartStyle.WIDTH, image.getWidth());
        }
    }

    @Test
    void aRunStoppedBeforeItsFirstAttemptStillDrawsItsCharts() throws Exception {
        RunResult result = Fixtures.run(Fixtures.phase()
                        .name("startup")
                        .threads(2)
                        .requests(new Requests(10, 0, 0, 10, 0, 0))
                        .started(false)
                        .build())
                .numThreads(8)
                .wallNanos(1_000_000)
                .stopped(true)
                .build();
        RunMetrics metrics = RunMetrics.merge(List.of(), result);
        TimeBuckets seconds = new TimeBuckets();
        Path dir = Files.createDirectories(Path.of("target", "chart-samples", "empty"));
        for (RunCharts.ChartFile f : RunCharts.write(dir, "8 threads (stopped)", result, seconds, metrics)) {
            assertNotNull(ImageIO.read(f.file().toFile()), f.file() + " decodes");
        }
    }

    private static PhaseResult phase(int index, String name, int threads, long[] span) {
        return Fixtures.phase()
                .index(index)
                .name(name)
                .threads(threads)
                .startNanos(span[0])
                .endNanos(span[1])
                .build();
    }
}
