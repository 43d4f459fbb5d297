package io.upic.liftride.server.store;

import java.util.Locale;

/**
 * Why the store is unavailable, given by the code that raises the {@link StoreUnavailableException};
 * its {@link #label()} is the {@code cause} label of {@code liftride_unavailable_total} (docs/operating.md).
 * Immutable.
 */
public enum UnavailableCause {
    /** The group-commit queue was full. */
    STORE_OVERLOADED,
    /** The ride waited in the queue past the request timeout and was never sent. */
    STORE_QUEUE_TIMEOUT,
    /** Redis refused a batch that arrived after its deadline. */
    STORE_DEADLINE,
    /** The store is closing (the server is stopping). */
    SHUTTING_DOWN,
    /** Redis answered with an error, or is too full to take a ride. */
    STORE_REFUSED,
    /** Redis did not answer (down, slow, unreachable) or did not confirm in time. */
    STORE_UNREACHABLE,
    /** A failure no other cause names. */
    STORE_OTHER;

    /** The label value, e.g. {@code store_overloaded}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
