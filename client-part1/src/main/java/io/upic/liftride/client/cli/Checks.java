package io.upic.liftride.client.cli;

import io.upic.liftride.client.threshold.Threshold;
import java.time.Duration;
import java.util.List;
import lombok.With;

/**
 * What is measured to judge a run: the baseline behind the prediction and the thresholds; each field's rule is its
 * flag's in {@link RunOptions}. Immutable.
 *
 * @param thresholds       --threshold, repeatable: checked at the end of each run, in this order; never null
 * @param abortOnFail      --abort-on-fail: stop the run once a threshold can no longer hold; needs a threshold
 * @param abortDelay       --abort-delay: how long after the run's start thresholds are first judged; null: 0
 * @param baselineRequests --baseline: single-thread requests for Little's law; 0 disables
 * @param recalibrate      --recalibrate: ignore the CPU per request stored by earlier runs and measure it anew
 */
@With
public record Checks(
        List<Threshold> thresholds,
        boolean abortOnFail,
        Duration abortDelay,
        int baselineRequests,
        boolean recalibrate) {

    public Checks {
        thresholds = thresholds == null ? List.of() : List.copyOf(thresholds);
        if (abortOnFail && thresholds.isEmpty()) {
            throw new IllegalArgumentException("abortOnFail without thresholds");
        }
        abortDelay = abortDelay == null ? Duration.ZERO : abortDelay;
    }
}
