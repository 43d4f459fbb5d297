package io.upic.liftride.client.report;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.prediction.CpuScope;
import io.upic.liftride.client.prediction.LittlesLaw;
import io.upic.liftride.client.prediction.Prediction;
import io.upic.liftride.client.threshold.Metric;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.ResultMetrics;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Fixed inputs rendered through the real printers: what ReportTest checks and what the docs show (client-part2's
 * MarkdownDocsTest compares each docs block marked with a renderer's name with these). Static, thread-safe.
 */
public final class ConsoleExamples {

    /** D = 100 us and Z = 0 on 2 cores, as the previous run of a sweep measured it. */
    public static final Prediction.Network NETWORK =
            new Prediction.Network(2, 100_000, 0, CpuScope.EMBEDDED_SERVER, "measured in run -t 16");

    private ConsoleExamples() {}

    /**
     * A fall2021 run of 32 threads whose traffic is all in the peak phase (index 1, as in the plan): 3 retries,
     * 2 ms per attempt, 12 s of wall time; startup and cooldown empty.
     */
    public static RunResult peakRun(long planned, long ok, long failed, long notSent, Map<Integer, Long> causes) {
        long attempts = ok + failed + 3;
        PhaseResult startup = Fixtures.phase()
                .index(0)
                .name("startup")
                .threads(8)
                .startNanos(5_000_000_000L)
                .endNanos(6_000_000_000L)
                .build();
        PhaseResult peak = Fixtures.phase()
                .index(1)
                .requests(new Requests(planned, ok, failed, notSent, 3, attempts))
                .latencyNanosSum(attempts * 2_000_000L)
                .failuresByCause(causes)
                .startNanos(5_000_000_000L)
                .endNanos(17_000_000_000L)
                .build();
        PhaseResult cooldown = Fixtures.phase()
                .index(2)
                .name("cooldown")
                .threads(8)
                .startNanos(16_000_000_000L)
                .endNanos(17_000_000_000L)
                .build();
        return Fixtures.run(startup, peak, cooldown)
                .startNanos(5_000_000_000L)
                .wallNanos(12_000_000_000L)
                .build();
    }

    /**
     * A run of 12 s that the model put at 9 s. W = 0.1 ms, D = 100 us under load: Z = 0, so X(n) = min(n, 2) / D
     * and a thread's cycle n x D / 2 (see NetworkTest); -t 32: startup 8 threads x 5,000 at 0.4 ms = 2 s, peak
     * 32 x 3,750 at 1.6 ms = 6 s, cooldown 8 x 2,500 at 0.4 ms = 1 s: 9 s, always saturated (180,000 x D / C).
     */
    public static RunReport missedRun() {
        RunResult r = peakRun(180_000, 179_990, 10, 0, Map.of(503, 7L, -1, 3L));
        LoadPlan plan = Fixtures.config().workload().loadPlan();
        Baseline.Result baseline = Fixtures.baseline().meanLatencyNanos(100_000).build();
        RunReport report = Fixtures.report(r)
                .baseline(baseline)
                .prediction(LittlesLaw.predict(plan, baseline))
                .model(LittlesLaw.mva(plan, baseline.meanLatencyNanos(), NETWORK))
                .reconciliation(Reconciliation.of(r, OptionalLong.of(10_000), OptionalLong.of(189_990), null))
                .processCpuNanos(21_600_000_000L)
                .build();
        return RunVerdict.judge(report, new ResultMetrics(r), "test", null);
    }

    /** Histogram-like metrics, as client-part2 measures them: mean 2 ms, p50 1.5 ms, p99 9 ms, max 40 ms. */
    public static final MetricSource PERCENTILES = new Percentiles();

    private static final class Percentiles implements MetricSource, RunSummary.Measured {
        @Override
        public OptionalDouble value(Metric metric) {
            return switch (metric.kind()) {
                case MEAN -> OptionalDouble.of(2_000_000);
                case PERCENTILE -> OptionalDouble.of(metric.percentile() == 50 ? 1_500_000 : 9_000_000);
                case MAX -> OptionalDouble.of(40_000_000);
                default -> OptionalDouble.empty();
            };
        }

        @Override
        public RunSummary.Latency latency(int phase, RunSummary.Attempts which) {
            return phase < 0 && which == RunSummary.Attempts.ALL
                    ? new RunSummary.Latency(2.0, 1.5, 9.0, 9.0, 9.0, 40.0, null, null, 9.0)
                    : null;
        }

        @Override
        public RunSummary.Latency operationLatency(Operation op) {
            return null;
        }
    }

    /** A finished, judged run at {@code threads} whose wall time is {@code wallNanos}, all requests in its peak. */
    public static RunReport briefRun(int threads, long wallNanos, long failed, MetricSource metrics) {
        RunConfig c = Fixtures.config().withThreads(threads);
        LoadPlan plan = c.workload().loadPlan();
        long planned = plan.totalRequests();
        long retries = failed * 5;
        PhaseResult peak = Fixtures.phase()
                .index(1)
                .threads(threads)
                .requests(new Requests(planned, planned - failed, failed, 0, retries, planned + retries))
                .latencyNanosSum((planned + retries) * 2_000_000L)
                .failuresByCause(failed == 0 ? Map.of() : Map.of(503, failed))
                .startNanos(0)
                .endNanos(wallNanos)
                .build();
        PhaseResult startup = Fixtures.phase().index(0).name("startup").build();
        PhaseResult cooldown = Fixtures.phase().index(2).name("cooldown").build();
        RunResult r = Fixtures.run(startup, peak, cooldown)
                .numThreads(threads)
                .wallNanos(wallNanos)
                .build();
        RunReport report = Fixtures.report(r)
                .config(c)
                .plan(plan)
                .prediction(LittlesLaw.predict(plan, 100_000))
                .model(LittlesLaw.mva(plan, 100_000, NETWORK))
                .reconciliation(Reconciliation.of(r, OptionalLong.of(0), OptionalLong.of(planned - failed), null))
                .build();
        return RunVerdict.judge(report, metrics, "test", null);
    }

    /** The brief account of a -t 32 run that matched its model: what the README shows. */
    public static String briefAccount() {
        RunReport report = briefRun(32, 9_000_000_000L, 0, PERCENTILES);
        return render(out -> {
                    BriefSummary.printPlan(out, report.config().workload(), report.plan());
                    BriefSummary.printResult(out, report);
                })
                .strip();
    }

    /** What the console prints with --verbose for {@code report}, with \n line ends. */
    public static String printed(RunReport report) {
        return render(out -> {
            BriefSummary.printResult(out, report);
            VerboseSummary.printResult(out, report);
        });
    }

    /** The prediction block of {@link #missedRun}: from its "Prediction, " line to the "(diff = " line. */
    public static String predictionMiss() {
        String out = printed(missedRun());
        int from = out.indexOf("Prediction, ");
        return out.substring(from, out.indexOf('\n', out.indexOf("  (diff = ", from)));
    }

    /** Two thresholds checked against p99 = 3.214 ms and 4,012.7 req/s: one passes, one fails. */
    public static String thresholds() {
        Metric p99 = Metric.parse("p99");
        ThresholdCheck check = ThresholdCheck.of(
                List.of(Threshold.parse("p99<50ms"), Threshold.parse("throughput>5000")),
                metric -> metric.equals(p99)
                        ? OptionalDouble.of(3_214_000)
                        : metric.equals(Metric.THROUGHPUT) ? OptionalDouble.of(4_012.7) : OptionalDouble.empty());
        return render(out -> check.print(out, "Thresholds")).stripTrailing();
    }

    private interface Printer {
        void print(PrintStream out);
    }

    private static String render(Printer printer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        printer.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
