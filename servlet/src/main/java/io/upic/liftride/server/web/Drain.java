package io.upic.liftride.server.web;

/**
 * Whether this server is draining: once {@link #begin()} is called (the server is stopping),
 * {@code /health/ready} answers 503 and every answer closes its connection, so a load balancer stops
 * sending and its kept-alive connections go away one request at a time. Thread-safe; one volatile
 * read per request.
 */
public final class Drain {
    /** The ServletContext attribute under which the web application keeps its drain state. */
    public static final String ATTRIBUTE = Drain.class.getName();

    private volatile boolean draining;

    /** Whether the server is stopping. */
    public boolean draining() {
        return draining;
    }

    /** The server is stopping: not ready any more. Irreversible; again is fine. */
    public void begin() {
        draining = true;
    }
}
