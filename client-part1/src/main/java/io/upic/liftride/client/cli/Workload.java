package io.upic.liftride.client.cli;

import io.upic.liftride.client.engine.Mix;
import io.upic.liftride.client.engine.RideValues;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.Shard;
import java.time.Duration;
import java.time.Instant;
import lombok.Builder;
import lombok.With;

/**
 * What one run sends, and when; each field's rule is its flag's in {@link RunOptions}, which checks it. Immutable;
 * a sweep's runs differ only in {@code threads}. Null fields mean the flag was not given: unseeded, the closed
 * model, no ramp, rides only, {@link Shard#WHOLE}, start at once, and the plan's default {@link MaxDuration#of}.
 */
@Builder(toBuilder = true)
@With
public record Workload(
        int threads,
        int skiers,
        int lifts,
        int meanRuns,
        int resortId,
        int seasonId,
        int dayId,
        String planName,
        Long seed,
        Double rate,
        Ramp ramp,
        Mix mix,
        Shard shard,
        Instant startAt,
        Duration maxDuration) {

    public Workload {
        RunOptions.THREADS.check("threads", threads);
        RunOptions.checkRate("rate", rate);
        shard = shard == null ? Shard.WHOLE : shard;
    }

    /** The ride values of every request: --resort, --season, --day and -l. */
    public RideValues ride() {
        return new RideValues(resortId, seasonId, dayId, lifts);
    }

    /** The open model this workload asks for, or null for the closed model. */
    public OpenModel openModel() {
        return rate == null ? null : new OpenModel(rate, threads);
    }

    /** The resolved plan (or the ramp's stages): this shard's part of it (see {@link Shard}). */
    public LoadPlan loadPlan() {
        return shard.of(wholePlan());
    }

    /** The resolved plan of every shard together: what the N processes of {@code --shard K/N} send between them. */
    public LoadPlan wholePlan() {
        return ramp != null
                ? ramp.forRun(threads, skiers, meanRuns)
                : PhasePlan.named(planName).forRun(threads, skiers, meanRuns);
    }
}
