package io.upic.liftride.client;

/**
 * A server the client started for itself (when no {@code -i} is given) and stops when done.
 */
public interface LocalServer extends AutoCloseable {

    /** Base URL with context path, e.g. {@code http://127.0.0.1:54321/liftride}. */
    String baseUrl();

    /** Stops the server; never throws. */
    @Override
    void close();

    /** Starts a {@link LocalServer}. */
    @FunctionalInterface
    interface Starter {
        LocalServer start() throws Exception;
    }
}
