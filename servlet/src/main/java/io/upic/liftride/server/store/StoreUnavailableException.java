package io.upic.liftride.server.store;

import java.util.Objects;

/**
 * The store did not answer in time (down, slow, overloaded); what was asked is not applied, unless
 * it carried an idempotency key that a retry will find. The API answers 503 with {@code Retry-After}
 * and counts it by its {@link UnavailableCause}. Immutable.
 */
public final class StoreUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final UnavailableCause unavailableCause;

    public StoreUnavailableException(UnavailableCause unavailableCause, String message, Throwable error) {
        super(message, error);
        this.unavailableCause = Objects.requireNonNull(unavailableCause, "unavailableCause");
    }

    public StoreUnavailableException(UnavailableCause unavailableCause, String message) {
        this(unavailableCause, message, null);
    }

    /** {@code error} if it is one, else a failure of the store that wraps it ({@link UnavailableCause#STORE_OTHER}). */
    public static StoreUnavailableException of(Throwable error) {
        return error instanceof StoreUnavailableException s
                ? s
                : new StoreUnavailableException(UnavailableCause.STORE_OTHER, "the ride store failed: " + error, error);
    }

    /** Why: given where the failure was raised. */
    public UnavailableCause unavailableCause() {
        return unavailableCause;
    }
}
