package io.upic.liftride.server.store;

/**
 * The store did not answer in time (down, slow, overloaded); what was asked is not applied, unless
 * it carried an idempotency key that a retry will find. The API answers 503 with {@code Retry-After}.
 */
public final class StoreUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }

    /** {@code cause} if it is one, else a failure of the store that wraps it (nothing was applied). */
    public static StoreUnavailableException of(Throwable cause) {
        return cause instanceof StoreUnavailableException s
                ? s
                : new StoreUnavailableException("the ride store failed: " + cause, cause);
    }
}
