package io.upic.liftride.client;

import java.util.List;

/**
 * A server the client started for itself (when no {@code -i} is given) and stops when done.
 */
public interface LocalServer extends AutoCloseable {

    /** Base URL with context path, e.g. {@code http://127.0.0.1:54321/liftride}. */
    String baseUrl();

    /** The lines the server printed so far (its drain's steps); the client shows them with --verbose only. */
    default List<String> log() {
        return List.of();
    }

    /** Stops the server; never throws. */
    @Override
    void close();

    /** Starts a {@link LocalServer}. */
    @FunctionalInterface
    interface Starter {
        LocalServer start() throws Exception;
    }
}
