package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.store.RideOutcome;
import java.util.List;

/** Applies one batch of rides that share a hash tag, atomically: all of them or none. */
@FunctionalInterface
interface BatchSink {
    /**
     * Applies {@code rides} (all with {@code tag}) and returns one outcome per ride, in order. A ride it
     * refuses on its own (a limit) it fails itself, through its future; its outcome is then ignored.
     *
     * @param deadlineNanos {@link System#nanoTime()} after which the batch must not be applied any
     *     more, because its requests have been answered
     * @throws RuntimeException when nothing was applied or the store did not say (the caller answers 503)
     */
    List<RideOutcome> apply(String tag, List<PendingRide> rides, long deadlineNanos);
}
