package io.upic.liftride.client.cli;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.RideValues;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.client.prediction.Baseline;
import io.upic.liftride.client.threshold.Threshold;
import io.upic.liftride.client.transport.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import lombok.Builder;
import lombok.With;

/**
 * Everything one run needs, as parsed from the command line; each field's rule is its flag's in
 * {@link RunOptions}, checked here too. Immutable and
 * thread-safe; {@code with*} methods (Lombok) return modified copies (a sweep uses {@code withThreads}), and
 * {@code toBuilder()} changes several fields at once. Every copy is validated again.
 *
 * @param threads              -t: threads of the peak phase
 * @param skiers               -s: skierIDs 1..skiers
 * @param lifts                -l: liftIDs 1..lifts
 * @param meanRuns             -m: mean rides per skier per day
 * @param baseUrl              -i as a base URL with context path; null: start the embedded server
 * @param resortId             --resort, path value of every POST
 * @param seasonId             --season
 * @param dayId                --day
 * @param planName             --plan, a name {@link PhasePlan#named} accepts
 * @param seed                 --seed; null: unseeded (ThreadLocalRandom)
 * @param connectTimeoutMillis --connect-timeout-ms
 * @param readTimeoutMillis    --read-timeout-ms (also the write timeout)
 * @param baselineRequests     --baseline: single-thread requests for Little's law; 0 disables
 * @param progress             --progress: show the progress line even when not on a terminal
 * @param transport            --transport
 * @param retryPolicy          --backoff-ms, --backoff-max-ms, --give-up-after-ms; always the assignment's 6 attempts
 * @param thresholds           --threshold, repeatable: checked at the end of each run, in this order; never null
 * @param summaryJson          --summary-json: where the JSON summary goes; null: not written
 * @param quiet                --quiet: no progress output (neither the line nor the plain 10 s lines)
 * @param shard                --shard K/N: the part of the plan this process sends; null means {@link Shard#WHOLE}
 * @param startAt              --start-at: when the first run starts (see {@link StartAt}); null: at once
 * @param rate                 --rate: requests per second the peak phase offers (the open model); null: the closed
 *                             model
 * @param ramp                 --ramp: the ramping rate whose stages replace the plan's phases (the open model);
 *                             null: none. Never with {@code rate}
 * @param maxDuration          --max-duration: the whole invocation's limit (a sweep's: its first config's), {@link
 *                             MaxDuration#NONE} for none; null: the default from the plan ({@link MaxDuration#of})
 * @param recalibrate          --recalibrate: ignore the CPU per request stored by earlier runs and measure it anew
 * @param verbose              --verbose: the full account of every step on the console, not the brief one
 * @param metricsAddress       --metrics-port: where the live metrics are served while the client runs; null: not
 * @param abortOnFail          --abort-on-fail: stop the run once a threshold can no longer hold; needs a threshold
 * @param abortDelay           --abort-delay: how long after the run's start thresholds are first judged; null: 0
 * @param mix                  --mix and --mix-unknown: the operations sent; null: rides only
 */
@Builder(toBuilder = true)
@With
public record RunConfig(
        int threads,
        int skiers,
        int lifts,
        int meanRuns,
        String baseUrl,
        int resortId,
        int seasonId,
        int dayId,
        String planName,
        Long seed,
        int connectTimeoutMillis,
        int readTimeoutMillis,
        int baselineRequests,
        boolean progress,
        Transport transport,
        RetryPolicy retryPolicy,
        List<Threshold> thresholds,
        Path summaryJson,
        boolean quiet,
        Shard shard,
        Instant startAt,
        Double rate,
        Ramp ramp,
        Duration maxDuration,
        boolean recalibrate,
        boolean verbose,
        MetricsAddress metricsAddress,
        boolean abortOnFail,
        Duration abortDelay,
        Mix mix) {

    /** Checks every field against its flag's rule (see {@link RunOptions}), for configs built without the CLI. */
    public RunConfig {
        RunOptions.THREADS.check("threads", threads);
        RunOptions.SKIERS.check("skiers", skiers);
        RunOptions.LIFTS.check("lifts", lifts);
        RunOptions.MEAN_RUNS.check("meanRuns", meanRuns);
        RunOptions.RESORT.check("resortId", resortId);
        RunOptions.SEASON.check("seasonId", seasonId);
        RunOptions.DAY.check("dayId", dayId);
        RunOptions.CONNECT_TIMEOUT.check("connectTimeoutMillis", connectTimeoutMillis);
        RunOptions.READ_TIMEOUT.check("readTimeoutMillis", readTimeoutMillis);
        RunOptions.BASELINE.check("baselineRequests", baselineRequests);
        PhasePlan.named(planName);
        RunOptions.checkRate("rate", rate);
        if (rate != null && ramp != null) {
            throw new IllegalArgumentException("rate and ramp both set: " + rate + ", " + ramp.text());
        }
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(retryPolicy, "retryPolicy");
        thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        if (quiet && progress) {
            throw new IllegalArgumentException("quiet and progress both set");
        }
        if (shard == null) {
            shard = Shard.WHOLE;
        }
        if (maxDuration != null && (maxDuration.isNegative() || maxDuration.compareTo(MaxDuration.MAX) > 0)) {
            throw new IllegalArgumentException("maxDuration not in 0..720h: " + maxDuration);
        }
        if (abortOnFail && thresholds.isEmpty()) {
            throw new IllegalArgumentException("abortOnFail without thresholds");
        }
        abortDelay = abortDelay == null ? Duration.ZERO : abortDelay;
        if (abortDelay.isNegative() || abortDelay.compareTo(MaxDuration.MAX) > 0) {
            throw new IllegalArgumentException("abortDelay not in 0..720h: " + abortDelay);
        }
    }

    /** Whether the client starts its own embedded server (no -i given). */
    public boolean embeddedServer() {
        return baseUrl == null;
    }

    /** The ride values of every request: --resort, --season, --day and -l. */
    public RideValues ride() {
        return new RideValues(resortId, seasonId, dayId, lifts);
    }

    /** What --baseline sends. */
    public Baseline.Spec baselineSpec() {
        return new Baseline.Spec(baselineRequests, ride(), skiers, retryPolicy, seed);
    }

    /** The phase plan named by {@link #planName()}. */
    public PhasePlan phasePlan() {
        return PhasePlan.named(planName);
    }

    /** The open model this config asks for, or null for the closed model. */
    public OpenModel openModel() {
        return rate == null ? null : new OpenModel(rate, threads);
    }

    /**
     * The resolved plan for this config's threads, skiers and runs (or its ramp's stages): this shard's part of it
     * (see {@link Shard}).
     */
    public LoadPlan loadPlan() {
        return shard.of(wholePlan());
    }

    /** The resolved plan of every shard together: what the N processes of {@code --shard K/N} send between them. */
    public LoadPlan wholePlan() {
        return ramp != null
                ? ramp.forRun(threads, skiers, meanRuns)
                : phasePlan().forRun(threads, skiers, meanRuns);
    }
}
