package io.upic.liftride.server.store;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;

/**
 * Everything about a ride that its idempotency key must match on a retry, packed in a long:
 * day (9 bits), skier (17), liftID (6), time (9), waitTime + 1 (5): 46 bits, never 0. Resort and
 * season are not in it: every store scopes its keys to the ride's skier day. Stateless.
 */
public final class RideKey {
    private RideKey() {}

    /** The packed ride; equal for two requests exactly when they carry the same day, skier and body. */
    public static long fingerprint(SkierDay where, LiftRide ride) {
        return ((long) where.dayId() << 37)
                | ((long) where.skierId() << 20)
                | ((long) ride.liftId() << 14)
                | ((long) ride.time() << 5)
                | (ride.waitTime() + 1);
    }
}
