package io.upic.liftride.server.store;

/**
 * What a {@link RideStore} reports about its own work, for {@code /metrics}: each round trip to its
 * backend and each batch of rides it writes. Implementations must be thread-safe and cheap (they run
 * on the store's hot path, once per command) and must not throw.
 */
public interface StoreObserver {
    /** Observes nothing: the default of every store. */
    StoreObserver NONE = new StoreObserver() {
        @Override
        public void command(long latencyNanos) {}

        @Override
        public void batch(int rides) {}
    };

    /** One command to the backend (a Redis round trip) answered or failed after {@code latencyNanos}. */
    void command(long latencyNanos);

    /** One batch of {@code rides} rides sent to the backend as one atomic call. */
    void batch(int rides);
}
