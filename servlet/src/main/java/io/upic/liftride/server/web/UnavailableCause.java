package io.upic.liftride.server.web;

import io.upic.liftride.server.store.StoreUnavailableException;

/**
 * Why the API answered 503, as the {@code cause} label of {@code liftride_unavailable_total}: read from
 * the store's message, which names what happened (see {@code GroupCommit} and {@code RedisRideStore}).
 * Stateless.
 */
enum UnavailableCause {
    /** The group-commit queue was full. */
    STORE_OVERLOADED("overloaded"),
    /** The ride waited in the queue past the request timeout and was never sent. */
    STORE_QUEUE_TIMEOUT("did not take the ride"),
    /** Redis refused a batch that arrived after its deadline. */
    STORE_DEADLINE("after its deadline"),
    /** The store is closing (the server is stopping). */
    SHUTTING_DOWN("shutting down"),
    /** Redis answered with an error. */
    STORE_REFUSED("refused"),
    /** Redis did not answer (down, slow, unreachable) or did not confirm in time. */
    STORE_UNREACHABLE("not answer", "did not confirm", "cannot load"),
    STORE_OTHER();

    private final String[] phrases;
    private final String label;

    UnavailableCause(String... phrases) {
        this.phrases = phrases;
        this.label = name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The label value, e.g. {@code store_overloaded}. */
    String label() {
        return label;
    }

    static UnavailableCause of(StoreUnavailableException e) {
        String message = String.valueOf(e.getMessage());
        for (UnavailableCause cause : values()) {
            for (String phrase : cause.phrases) {
                if (message.contains(phrase)) {
                    return cause;
                }
            }
        }
        return STORE_OTHER;
    }
}
