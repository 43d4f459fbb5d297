package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.Abort;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.client.threshold.ThresholdResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import lombok.Builder;

/**
 * The machine-readable summary of one run, as {@code --summary-json} and client-part2's {@code summary.json}
 * write it ({@link SummaryJson}); the keys are the component names, described by
 * {@code summary.schema.json} (this module's resources). Plain values only, so that a merge of shards can
 * build one from merged data with the builder. A null component is written as JSON null: not measured
 * by this client, or not applicable (the open model's fields in the closed model). Immutable and thread-safe.
 */
@Builder(toBuilder = true)
public record RunSummary(
        int schemaVersion,
        String client,
        String startTime,
        String endTime,
        Shard shard,
        String plan,
        int threads,
        int skiers,
        int lifts,
        int meanRuns,
        int resort,
        int season,
        int day,
        Long seed,
        String transport,
        String serverUrl,
        Double offeredRate,
        RampOutcome ramp,
        long planned,
        long successful,
        long failed,
        long notSent,
        long retries,
        long attempts,
        Map<Integer, Long> failuresByCause,
        double wallSeconds,
        double throughput,
        boolean stopped,
        boolean ok,
        List<Phase> phases,
        Latency latencyMs,
        Latency latencyFromIntendedMs,
        List<ThresholdOutcome> thresholds,
        boolean thresholdsPassed,
        Aborted abort,
        Server server,
        List<String> problems,
        List<ShardPart> shards,
        PredictionInputs prediction,
        List<OperationRow> operations) {

    /** The schema version this code writes. */
    public static final int SCHEMA_VERSION = 1;

    public RunSummary {
        phases = List.copyOf(phases);
        thresholds = List.copyOf(thresholds);
        problems = List.copyOf(problems);
        failuresByCause = failuresByCause == null ? Map.of() : Map.copyOf(failuresByCause);
        shards = shards == null ? null : List.copyOf(shards);
        operations = operations == null ? null : List.copyOf(operations);
        Objects.requireNonNull(latencyMs, "latencyMs");
        Objects.requireNonNull(server, "server");
    }

    /** A {@code --ramp} run's stages (its phases), as {@link RampStages} judges them. */
    public record RampOutcome(String spec, List<RampStages.Stage> stages) {

        public RampOutcome {
            stages = List.copyOf(stages);
        }
    }

    /** This process's part of a sharded run ({@code --shard K/N}). */
    public record Shard(int index, int count) {}

    /**
     * The prediction made before the run: the closed-network model's (MVA) when D was known, else
     * the naive N / W with the network's inputs null.
     */
    public record PredictionInputs(
            String model,
            double wallSeconds,
            double throughput,
            double wNanos,
            Double dNanos,
            Integer cores,
            Double delayNanos) {

        /** The model's prediction when there is one, else the naive one; null without either. */
        static PredictionInputs of(Prediction naive, Prediction model) {
            Prediction p = model != null ? model : naive;
            if (p == null) {
                return null;
            }
            Prediction.Network n = p.network();
            return new PredictionInputs(
                    p.model(),
                    p.wallNanos() / 1e9,
                    p.throughputPerSecond(),
                    p.meanLatencyNanos(),
                    n == null ? null : n.cpuNanosPerRequest(),
                    n == null ? null : n.cores(),
                    n == null ? null : n.delayNanos());
        }
    }

    /** One shard's own numbers in a merged summary. */
    public record ShardPart(
            String shard,
            String dir,
            String startTime,
            double wallSeconds,
            long planned,
            long successful,
            long failed,
            long notSent,
            long retries,
            double throughput,
            Latency latencyMs) {}

    /** One operation of a {@code --mix} run (see {@link OperationStats}). */
    public record OperationRow(
            String operation,
            int weight,
            long requests,
            long successful,
            long failed,
            long notFound,
            long attempts,
            double throughput,
            Latency latencyMs) {

        /** The rows of {@code mix}'s operations, in the contract's order; null without a mix. */
        public static List<OperationRow> of(Mix mix, RunResult r, MetricSource source) {
            if (mix == null) {
                return null;
            }
            List<OperationRow> rows = new ArrayList<>();
            mix.weights().forEach((op, weight) -> {
                OperationStats s = r.operations().getOrDefault(op, new OperationStats(op, 0, 0, 0, 0, 0));
                rows.add(new OperationRow(
                        op.operationId(),
                        weight,
                        s.requests(),
                        s.successful(),
                        s.failed(),
                        s.notFound(),
                        s.attempts(),
                        r.wallNanos() <= 0 ? 0 : s.successful() * 1e9 / r.wallNanos(),
                        Latency.from(source.operation(op).orElse(m -> OptionalDouble.empty()), false)));
            });
            return rows;
        }
    }

    /** One phase. */
    public record Phase(
            String name,
            int threads,
            long requests,
            long successful,
            long failed,
            double durationSeconds,
            double throughput,
            Latency latencyMs,
            Latency latencyFromIntendedMs) {

        /** The phase as a run's account has it, without latencies. */
        public static Phase of(PhaseResult p) {
            return new Phase(
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.requests().failed(),
                    p.durationNanos() / 1e9,
                    p.throughputPerSecond(),
                    null,
                    null);
        }

        /** This phase with the latencies {@code source} gives for it (from the intended send too if it has them). */
        public Phase withLatencies(MetricSource source) {
            boolean intended = source.value(Metric.MEAN.fromIntended()).isPresent();
            return new Phase(
                    name,
                    threads,
                    requests,
                    successful,
                    failed,
                    durationSeconds,
                    throughput,
                    Latency.from(source, false),
                    intended ? Latency.from(source, true) : null);
        }
    }

    /**
     * Latency statistics in milliseconds; null where the client does not measure one (client-part1 keeps
     * only the mean) or there was no attempt.
     */
    public record Latency(Double mean, Double p50, Double p90, Double p99, Double p999, Double max) {

        /** The statistics {@code source} gives, from the intended send if {@code intended}. */
        static Latency from(MetricSource source, boolean intended) {
            return new Latency(
                    millis(source, Metric.MEAN, intended),
                    millis(source, Metric.percentile(50), intended),
                    millis(source, Metric.percentile(90), intended),
                    millis(source, Metric.percentile(99), intended),
                    millis(source, Metric.percentile(99.9), intended),
                    millis(source, Metric.MAX, intended));
        }

        private static Double millis(MetricSource source, Metric metric, boolean intended) {
            OptionalDouble nanos = source.value(intended ? metric.fromIntended() : metric);
            return nanos.isEmpty() ? null : finiteOrNull(nanos.getAsDouble() / 1e6);
        }
    }

    /** One threshold's outcome. */
    public record ThresholdOutcome(String expr, Double value, String unit, boolean passed) {

        public static ThresholdOutcome of(ThresholdResult r) {
            return new ThresholdOutcome(
                    r.threshold().expr(),
                    finiteOrNull(r.displayValue()),
                    Threshold.unit(r.threshold().metric()),
                    r.passed());
        }
    }

    /** Why and when --abort-on-fail stopped the run. */
    public record Aborted(String threshold, String reason, String time, double afterSeconds, String shard) {

        /** "Stopped by --abort-on-fail 2.3 s into the run: p99<50ms can no longer hold: ...". */
        public String line() {
            return String.format(
                    Locale.US,
                    "Stopped by --abort-on-fail %.1f s into the run%s: %s can no longer hold: %s",
                    afterSeconds,
                    shard == null ? "" : " (shard " + shard + ")",
                    threshold,
                    reason);
        }

        /** {@code a} as the summary has it; null for null. */
        public static Aborted of(Abort a) {
            return a == null
                    ? null
                    : new Aborted(
                            a.threshold(),
                            a.reason(),
                            Instant.ofEpochMilli(a.epochMillis()).toString(),
                            a.afterNanos() / 1e9,
                            null);
        }
    }

    /** The server's side of the reconciliation: its {@code ridesStored} read before and after the run. */
    public record Server(
            boolean checked,
            Long ridesStoredBefore,
            Long ridesStoredAfter,
            Long delta,
            Boolean reconciled,
            String note) {

        static Server of(Reconciliation c) {
            Long before = c.storedBefore().isPresent() ? c.storedBefore().getAsLong() : null;
            Long after = c.storedAfter().isPresent() ? c.storedAfter().getAsLong() : null;
            if (!c.serverChecked()) {
                return new Server(false, before, after, null, null, c.serverNote());
            }
            return new Server(true, before, after, c.serverDelta(), c.serverReconciled(), null);
        }
    }

    /** The summary of a finished run. */
    public static RunSummary of(
            RunReport report, MetricSource source, ThresholdCheck check, String client, Double offeredRate) {
        RunResult r = report.result();
        boolean intended = source.value(Metric.MEAN.fromIntended()).isPresent();
        return RunSummary.builder()
                .schemaVersion(SCHEMA_VERSION)
                .client(client)
                .startTime(Instant.ofEpochMilli(r.startEpochMillis()).toString())
                .endTime(Instant.ofEpochMilli(r.startEpochMillis() + r.wallNanos() / 1_000_000)
                        .toString())
                .plan(r.planName())
                .threads(r.numThreads())
                .skiers(report.config().workload().skiers())
                .lifts(report.config().workload().lifts())
                .meanRuns(report.config().workload().meanRuns())
                .resort(report.config().workload().resortId())
                .season(report.config().workload().seasonId())
                .day(report.config().workload().dayId())
                .failuresByCause(r.failuresByCause())
                .seed(report.config().workload().seed())
                .transport(report.config().target().transport().cliName())
                .serverUrl(report.serverUrl())
                .shard(
                        report.config().workload().shard().whole()
                                ? null
                                : new Shard(
                                        report.config().workload().shard().index(),
                                        report.config().workload().shard().count()))
                .offeredRate(offeredRate)
                .ramp(
                        report.config().workload().ramp() == null
                                ? null
                                : new RampOutcome(
                                        report.config().workload().ramp().text(),
                                        RampStages.of(report.config().workload().ramp(), r.phases())))
                .requests(r.requests())
                .wallSeconds(r.wallNanos() / 1e9)
                .throughput(r.throughputPerSecond())
                .stopped(r.stopped())
                .ok(report.ok())
                .phases(phases(r, source))
                .latencyMs(Latency.from(source, false))
                .latencyFromIntendedMs(intended ? Latency.from(source, true) : null)
                .thresholds(check.results().stream().map(ThresholdOutcome::of).toList())
                .thresholdsPassed(check.passed())
                .abort(Aborted.of(report.abort()))
                .server(Server.of(report.reconciliation()))
                .problems(r.problems())
                .prediction(PredictionInputs.of(report.prediction(), report.model()))
                .operations(OperationRow.of(report.config().workload().mix(), r, source))
                .build();
    }

    /** Each phase of {@code r}, with its own latencies when {@code source} measures them per phase. */
    public static List<Phase> phases(RunResult r, MetricSource source) {
        List<Phase> phases = new ArrayList<>(r.phases().size());
        for (int k = 0; k < r.phases().size(); k++) {
            Phase p = Phase.of(r.phases().get(k));
            phases.add(source.phase(k).map(p::withLatencies).orElse(p));
        }
        return phases;
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Lombok's builder, which also sets the request account in one call. */
    public static class RunSummaryBuilder implements Requests.Fields<RunSummaryBuilder> {}
}
