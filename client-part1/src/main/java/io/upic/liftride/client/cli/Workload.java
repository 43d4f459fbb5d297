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
 * What one run sends, and when; each field's rule is its flag's in {@link RunOptions}. Immutable; a sweep's runs
 * differ only in {@code threads}.
 *
 * @param threads     -t: threads of the peak phase
 * @param skiers      -s: skierIDs 1..skiers
 * @param lifts       -l: liftIDs 1..lifts
 * @param meanRuns    -m: mean rides per skier per day
 * @param resortId    --resort, path value of every POST
 * @param seasonId    --season
 * @param dayId       --day
 * @param planName    --plan, a name {@link PhasePlan#named} accepts
 * @param seed        --seed; null: unseeded (ThreadLocalRandom)
 * @param rate        --rate: requests per second the peak phase offers (the open model); null: the closed model
 * @param ramp        --ramp: the ramping rate whose stages replace the plan's phases (the open model); null: none.
 *                    Never with {@code rate}
 * @param mix         --mix and --mix-unknown: the operations sent; null: rides only
 * @param shard       --shard K/N: the part of the plan this process sends; null means {@link Shard#WHOLE}
 * @param startAt     --start-at: when the first run starts (see {@link StartAt}); null: at once
 * @param maxDuration --max-duration: the whole invocation's limit, {@link MaxDuration#NONE} for none; null: the
 *                    default from the plan ({@link MaxDuration#of})
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
        RunOptions.SKIERS.check("skiers", skiers);
        RunOptions.LIFTS.check("lifts", lifts);
        RunOptions.MEAN_RUNS.check("meanRuns", meanRuns);
        RunOptions.RESORT.check("resortId", resortId);
        RunOptions.SEASON.check("seasonId", seasonId);
        RunOptions.DAY.check("dayId", dayId);
        PhasePlan.named(planName);
        RunOptions.checkRate("rate", rate);
        if (rate != null && ramp != null) {
            throw new IllegalArgumentException("rate and ramp both set: " + rate + ", " + ramp.text());
        }
        shard = shard == null ? Shard.WHOLE : shard;
        if (maxDuration != null) {
            MaxDuration.check("maxDuration", maxDuration);
        }
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
