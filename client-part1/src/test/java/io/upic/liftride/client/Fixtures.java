package io.upic.liftride.client;

import io.upic.liftride.client.cli.RunConfig;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.report.Reconciliation;
import io.upic.liftride.client.report.RunReport;
import io.upic.liftride.flags.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Values for tests, as builders preset with defaults that make sense, so a test sets only what it checks.
 * client-part2's tests use it too (client-part1's test jar).
 */
public final class Fixtures {

    private Fixtures() {}

    /** What {@code flags} give, with {@code -t 32} and {@code -s 20000} unless they set them. */
    public static RunConfig config(String... flags) {
        List<String> args = new ArrayList<>(List.of(flags));
        if (!args.contains("-t")) {
            args.addAll(List.of("-t", "32"));
        }
        if (!args.contains("-s")) {
            args.addAll(List.of("-s", "20000"));
        }
        try {
            return RunOptions.parse(args.toArray(String[]::new)).config();
        } catch (UsageException e) {
            throw new AssertionError(e);
        }
    }

    /** A started phase 0, "peak", of 32 threads, with nothing planned, counted or timed yet. */
    public static PhaseResult.PhaseResultBuilder phase() {
        return PhaseResult.builder()
                .index(0)
                .name("peak")
                .threads(32)
                .requests(Requests.NONE)
                .failuresByCause(Map.of())
                .started(true);
    }

    /**
     * A fall2021 run with 32 threads whose totals (planned, successful, failed, not sent, retries, attempts,
     * latency, failures by cause) are the sums over {@code phases}; times 0, not stopped, no problems.
     */
    public static RunResult.RunResultBuilder run(PhaseResult... phases) {
        Requests requests = Requests.NONE;
        long latency = 0;
        Map<Integer, Long> causes = new TreeMap<>();
        for (PhaseResult p : phases) {
            requests = requests.plus(p.requests());
            latency += p.latencyNanosSum();
            p.failuresByCause().forEach((code, n) -> causes.merge(code, n, Long::sum));
        }
        return RunResult.builder()
                .planName("fall2021")
                .numThreads(32)
                .phases(List.of(phases))
                .requests(requests)
                .latencyNanosSum(latency)
                .failuresByCause(causes)
                .problems(List.of());
    }

    /** 10,000 successful measured requests after 10,000 warm-up ones, W = 1 ms over 10 s, CPU time unknown. */
    public static Baseline.Result.ResultBuilder baseline() {
        return Baseline.Result.builder()
                .requests(10_000)
                .successful(10_000)
                .attempts(10_000)
                .meanLatencyNanos(1_000_000)
                .wallNanos(10_000_000_000L)
                .warmupRequests(10_000)
                .cpuNanos(-1)
                .cpuLessJitNanos(-1);
    }

    /**
     * The report of {@code result} for {@link #config()}'s plan against an embedded server at 127.0.0.1:1 that
     * stored exactly the successful requests; no baseline, no predictions, process CPU unknown, 2 cores.
     */
    public static RunReport.RunReportBuilder report(RunResult result) {
        RunConfig c = config();
        return RunReport.builder()
                .config(c)
                .plan(c.workload().loadPlan())
                .serverUrl("http://127.0.0.1:1/liftride")
                .embeddedServer(true)
                .result(result)
                .reconciliation(Reconciliation.of(
                        result,
                        OptionalLong.of(0),
                        OptionalLong.of(result.requests().successful()),
                        null))
                .processCpuNanos(-1)
                .cores(2);
    }
}
