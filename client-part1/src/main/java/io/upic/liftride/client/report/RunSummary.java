package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.OperationStats;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.Abort;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.client.threshold.ThresholdResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
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
        List<OperationRow> operations,
        Latency latencyFirstMs) {

    /** The schema version this code writes. */
    public static final int SCHEMA_VERSION = 1;

    public RunSummary {
        phases = List.copyOf(phases);
        thresholds = List.copyOf(thresholds);
        problems = List.copyOf(problems);
        failuresByCause = failuresByCause == null
                ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(failuresByCause)); // by code, as printed
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
                        source instanceof Measured m ? m.operationLatency(op) : Latency.mean(s.meanLatencyNanos())));
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
            Latency latencyFromIntendedMs,
            Latency latencyFirstMs) {

        /** Whether it ran: a phase a stop kept from starting has neither duration nor a finished request. */
        public boolean ran() {
            return durationSeconds > 0 || successful + failed > 0;
        }

        /** Little's law with measured numbers: throughput x mean latency = requests in flight; 0 without a mean. */
        public double inFlight() {
            return latencyMs == null || latencyMs.mean() == null ? 0 : throughput * latencyMs.mean() / 1e3;
        }
    }

    /**
     * Latency statistics in milliseconds, the one record every output reads; a value is null where the client
     * does not measure it (client-part1 keeps only the mean) or there was no attempt. Count, mean, min and max are
     * exact; the percentiles HdrHistogram's (3 significant digits, capped at the exact max).
     */
    public record Latency(
            Double mean,
            Double p50,
            Double p90,
            Double p99,
            Double p999,
            Double max,
            Long count,
            Double min,
            Double p95) {

        /** Without count, min and p95: what an older summary holds. */
        public Latency(Double mean, Double p50, Double p90, Double p99, Double p999, Double max) {
            this(mean, p50, p90, p99, p999, max, null, null, null);
        }

        /** The columns of every latency table, in the order of {@link #columns}. */
        public static final List<String> COLUMNS =
                List.of("mean", "median", "p90", "p95", "p99", "p99.9", "min", "max");

        /** This record's values in the order of {@link #COLUMNS}, in milliseconds (null: not measured). */
        public List<Double> columns() {
            return Arrays.asList(mean, p50, p90, p95, p99, p999, min, max);
        }

        /** Attempts it covers: 0 when the client did not count them. */
        public long attempts() {
            return count == null ? 0 : count;
        }

        /** Only a mean of {@code nanos}: what client-part1's counters give. */
        static Latency mean(double nanos) {
            return new Latency(finiteOrNull(nanos / 1e6), null, null, null, null, null, null, null, null);
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
                .latencyMs(latency(source, -1, Attempts.ALL, r.meanLatencyNanos()))
                .latencyFromIntendedMs(latency(source, -1, Attempts.INTENDED, 0))
                .latencyFirstMs(latency(source, -1, Attempts.FIRST, 0))
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
            PhaseResult p = r.phases().get(k);
            phases.add(new Phase(
                    p.name(),
                    p.threads(),
                    p.requests().planned(),
                    p.requests().successful(),
                    p.requests().failed(),
                    p.durationNanos() / 1e9,
                    p.throughputPerSecond(),
                    latency(source, k, Attempts.ALL, p.meanLatencyNanos()),
                    latency(source, k, Attempts.INTENDED, 0),
                    latency(source, k, Attempts.FIRST, 0)));
        }
        return phases;
    }

    /** Which attempts a latency record covers. */
    public enum Attempts {
        ALL,
        FIRST,
        INTENDED
    }

    /** A {@link MetricSource} that gives the summary's latency records whole, count and min too (client-part2). */
    public interface Measured {
        /** The latencies of phase {@code phase} (the whole run for -1); null when not recorded (closed: intended). */
        Latency latency(int phase, Attempts which);

        /** With --mix, operation {@code op}'s attempts' latencies from the actual send; null when none was sent. */
        Latency operationLatency(Operation op);
    }

    /**
     * The latencies of {@code which} attempts over phase {@code phase} (-1: the run): whole from a {@link Measured}
     * source, else the account's mean ({@code meanNanos}) of all attempts and null for the others.
     */
    private static Latency latency(MetricSource source, int phase, Attempts which, double meanNanos) {
        if (source instanceof Measured m) {
            return m.latency(phase, which);
        }
        return which == Attempts.ALL ? Latency.mean(meanNanos) : null;
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Lombok's builder, which also sets the request account in one call. */
    public static class RunSummaryBuilder implements Requests.Fields<RunSummaryBuilder> {}
}
