package io.upic.liftride.client.cli;

import io.upic.liftride.client.prediction.Baseline;
import lombok.With;

/** Everything one run needs, by concern, each part checking its own fields. Immutable. */
@With
public record RunConfig(Target target, Workload workload, Output output, Checks checks) {

    /** This config at {@code threads}: one run of a sweep. */
    public RunConfig withThreads(int threads) {
        return withWorkload(workload.withThreads(threads));
    }

    /** What --baseline sends. */
    public Baseline.Spec baselineSpec() {
        Workload w = workload;
        return new Baseline.Spec(checks.baselineRequests(), w.ride(), w.skiers(), target.retryPolicy(), w.seed());
    }
}
