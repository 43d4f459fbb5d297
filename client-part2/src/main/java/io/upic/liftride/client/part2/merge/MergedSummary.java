package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.part2.metrics.HistogramMetrics;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code summary.json} of a merge: the same {@link RunSummary} a single run writes, built from the merged
 * numbers, with every shard's own numbers in {@code shards} and the merge's {@code --threshold} checks. What a
 * merge cannot know is null: the seed; the open model's rate and latencies from the intended send, the mix's
 * operations, the ramp's stages and a shard's abort are merged ({@link ShardMerge}).
 * Stateless; thread-safe.
 */
public final class MergedSummary {

    /** Written into each merged run folder, as a run writes it. */
    public static final String FILE = SummaryJson.FILE;

    /** The {@code client} value of a merged summary. */
    public static final String CLIENT = "client-part2 merge";

    private MergedSummary() {}

    /** The summary of {@code m}. */
    public static RunSummary of(MergedRun m) {
        RunResult r = m.result();
        RunSummary id = m.identity().summary();
        List<String> problems = new ArrayList<>(r.problems());
        if (!m.missing().isEmpty()) {
            problems.add("partial merge: shards " + m.missing() + " of "
                    + m.identity().count() + " were not given");
        }
        return RunSummary.builder()
                .schemaVersion(RunSummary.SCHEMA_VERSION)
                .client(CLIENT)
                .startTime(Instant.ofEpochMilli(r.startEpochMillis()).toString())
                .endTime(Instant.ofEpochMilli(r.startEpochMillis() + r.wallNanos() / 1_000_000)
                        .toString())
                .plan(r.planName())
                .threads(r.numThreads())
                .skiers(id.skiers())
                .lifts(id.lifts())
                .meanRuns(id.meanRuns())
                .resort(id.resort())
                .season(id.season())
                .day(id.day())
                .failuresByCause(r.failuresByCause())
                .transport(String.join("+", m.transports()))
                .serverUrl(id.serverUrl())
                .requests(r.requests())
                .wallSeconds(r.wallNanos() / 1e9)
                .throughput(r.throughputPerSecond())
                .stopped(r.stopped())
                .ok(m.ok())
                .phases(RunSummary.phases(r, new HistogramMetrics(m.metrics(), r)))
                .latencyMs(m.metrics().run().all())
                .latencyFirstMs(m.metrics().run().first())
                .offeredRate(m.offeredRate())
                .latencyFromIntendedMs(m.metrics().run().fromIntended())
                .thresholds(m.thresholds().results().stream()
                        .map(RunSummary.ThresholdOutcome::of)
                        .toList())
                .thresholdsPassed(m.thresholds().passed())
                .server(m.server())
                .problems(problems)
                .shards(shards(m))
                .ramp(MergedRamp.of(m.shards()))
                .abort(m.abort())
                .operations(operations(m.identity().summary(), r, new HistogramMetrics(m.metrics(), r)))
                .build();
    }

    /** The rows of the shards' mix ({@code id}'s), with the merged counts and latencies; null without a mix. */
    private static List<RunSummary.OperationRow> operations(RunSummary id, RunResult r, HistogramMetrics source) {
        if (id.operations() == null) {
            return null;
        }
        Map<Operation, Integer> weights = new EnumMap<>(Operation.class);
        id.operations().forEach(o -> weights.put(Operation.of(o.operation()), o.weight()));
        return RunSummary.OperationRow.of(new Mix(weights, 0), r, source);
    }

    private static List<RunSummary.ShardPart> shards(MergedRun m) {
        List<RunSummary.ShardPart> parts = new ArrayList<>();
        for (int i = 0; i < m.shards().size(); i++) {
            ShardRun s = m.shards().get(i);
            parts.add(new RunSummary.ShardPart(
                    s.label(),
                    s.dir().toString(),
                    s.summary().startTime(),
                    s.summary().wallSeconds(),
                    s.summary().planned(),
                    s.summary().successful(),
                    s.summary().failed(),
                    s.summary().notSent(),
                    s.summary().retries(),
                    s.summary().throughput(),
                    s.summary().latencyMs()));
        }
        return parts;
    }
}
