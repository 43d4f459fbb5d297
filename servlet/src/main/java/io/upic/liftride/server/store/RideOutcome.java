package io.upic.liftride.server.store;

/** What {@link RideStore#addRide} did with one ride. */
public enum RideOutcome {
    /** The ride is stored: every aggregate includes it. */
    STORED,
    /** The ride's idempotency key was applied before with the same ride: nothing changed this time. */
    REPLAYED,
    /** The ride's idempotency key was applied before with a different ride: nothing changed. */
    KEY_REUSED
}
