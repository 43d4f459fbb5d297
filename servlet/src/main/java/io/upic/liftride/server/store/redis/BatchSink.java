package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.store.RideOutcome;
import java.util.List;

/** Applies one batch of rides that share a hash tag, atomically: all of them or none. */
@FunctionalInterface
interface BatchSink {
    /**
     * Applies {@code rides} (all with {@code tag}), not after {@code deadlineNanos} ({@link System#nanoTime()}), and
     * returns one outcome per ride; a ride refused for a limit is failed through its future. Throws when nothing
     * was applied or the store did not say (a 503).
     */
    List<RideOutcome> apply(String tag, List<PendingRide> rides, long deadlineNanos);
}
