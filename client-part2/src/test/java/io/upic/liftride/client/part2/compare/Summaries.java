package io.upic.liftride.client.part2.compare;

import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.report.SummaryJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Run summaries for the compare tests, written by the real {@link SummaryJson} writer. */
final class Summaries {

    private Summaries() {}

    /** Latencies where every statistic is {@code ms} times a fixed ratio (mean 1x, p50 0.9x ... max 10x). */
    static Latency latency(double ms) {
        return new Latency(ms, 0.9 * ms, 1.5 * ms, 2 * ms, 3 * ms, 10 * ms);
    }

    /** A closed-model run of {@code -t threads -s 2000} with two phases. */
    static RunSummary.RunSummaryBuilder run(int threads, double throughput, double latencyMs, long failed) {
        return RunSummary.builder()
                .schemaVersion(RunSummary.SCHEMA_VERSION)
                .client("client-part2")
                .startTime("2026-11-24T06:00:00Z")
                .endTime("2026-11-24T06:00:05Z")
                .plan("fall2021")
                .threads(threads)
                .skiers(2000)
                .lifts(40)
                .meanRuns(10)
                .transport("sdk")
                .serverUrl("http://127.0.0.1:1/liftride")
                .planned(20_000)
                .successful(20_000 - failed)
                .failed(failed)
                .attempts(20_000)
                .wallSeconds(5)
                .throughput(throughput)
                .ok(failed == 0)
                .phases(List.of(
                        new RunSummary.Phase(
                                "startup", 2, 1000, 1000, 0, 1, throughput / 2, latency(latencyMs / 2), null, null),
                        new RunSummary.Phase(
                                "peak",
                                threads,
                                19000,
                                19000 - failed,
                                failed,
                                4,
                                throughput,
                                latency(latencyMs),
                                null,
                                null)))
                .latencyMs(latency(latencyMs))
                .thresholds(List.of())
                .thresholdsPassed(true)
                .server(new RunSummary.Server(false, null, null, null, null, "test"))
                .problems(List.of());
    }

    /** Writes {@code summary} as {@code dir/summary.json}; returns {@code dir}. */
    static Path write(Path dir, RunSummary summary) throws IOException {
        SummaryJson.write(dir.resolve(SummaryJson.FILE), List.of(summary));
        return dir;
    }
}
