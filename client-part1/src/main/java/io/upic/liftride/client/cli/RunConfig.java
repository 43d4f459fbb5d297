package io.upic.liftride.client.cli;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.Transport;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import java.util.Objects;
import lombok.Builder;
import lombok.With;

/**
 * Everything one run needs, as parsed from the command line (see {@link RunOptions}). Immutable and
 * thread-safe; {@code with*} methods (Lombok) return modified copies (a sweep uses {@code withThreads}), and
 * {@code toBuilder()} changes several fields at once. Every copy is validated again.
 *
 * @param threads              -t: threads of the peak phase, 1..1024
 * @param skiers               -s: skierIDs 1..skiers, 1..100000
 * @param lifts                -l: liftIDs 1..lifts, 5..60
 * @param meanRuns             -m: mean rides per skier per day, 1..20
 * @param baseUrl              -i as a base URL with context path; null: start the embedded server
 * @param resortId             --resort, path value of every POST
 * @param seasonId             --season, a 4-digit year
 * @param dayId                --day, 1..366
 * @param planName             --plan, a name {@link PhasePlan#named} accepts
 * @param seed                 --seed; null: unseeded (ThreadLocalRandom)
 * @param connectTimeoutMillis --connect-timeout-ms
 * @param readTimeoutMillis    --read-timeout-ms (also the write timeout)
 * @param baselineRequests     --baseline: single-thread requests for Little's law; 0 disables
 * @param progress             --progress: show the progress line even when not on a terminal
 * @param transport            --transport
 * @param retryPolicy          --backoff-ms, --backoff-max-ms, --give-up-after-ms; always the assignment's 6 attempts
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
        RetryPolicy retryPolicy) {

    public RunConfig {
        check("threads", threads, ThreadCounts.MIN, ThreadCounts.MAX);
        check("skiers", skiers, 1, 100_000);
        check("lifts", lifts, 5, 60);
        check("meanRuns", meanRuns, 1, 20);
        check("resortId", resortId, 1, Integer.MAX_VALUE);
        check("seasonId", seasonId, 1000, 9999);
        check("dayId", dayId, 1, 366);
        check("connectTimeoutMillis", connectTimeoutMillis, 1, 600_000);
        check("readTimeoutMillis", readTimeoutMillis, 1, 600_000);
        check("baselineRequests", baselineRequests, 0, 1_000_000);
        PhasePlan.named(planName);
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(retryPolicy, "retryPolicy");
    }

    /** The documented defaults for everything but threads and skiers, against the embedded server. */
    public static RunConfig defaults(int threads, int skiers) {
        return new RunConfig(
                threads,
                skiers,
                40,
                10,
                null,
                1,
                2022,
                1,
                "fall2021",
                null,
                5_000,
                10_000,
                10_000,
                false,
                Transport.SDK,
                RetryPolicy.DEFAULT);
    }

    /** Whether the client starts its own embedded server (no -i given). */
    public boolean embeddedServer() {
        return baseUrl == null;
    }

    /** The phase plan named by {@link #planName()}. */
    public PhasePlan phasePlan() {
        return PhasePlan.named(planName);
    }

    /** The resolved plan for this config's threads, skiers and runs. */
    public LoadPlan loadPlan() {
        return phasePlan().forRun(threads, skiers, meanRuns);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " not in " + min + ".." + max + ": " + value);
        }
    }
}
