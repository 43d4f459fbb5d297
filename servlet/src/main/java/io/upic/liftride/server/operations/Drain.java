package io.upic.liftride.server.operations;

/**
 * Where this server is in its drain: once {@link #begin()} is called (the server is stopping), {@code
 * /health/ready} answers 503; once {@link #closeConnections()} is called (the listening socket is
 * closed), every answer also closes its connection, so a proxy's kept-alive connections go away one
 * answered request at a time, never while a request may be on its way. Thread-safe; one volatile read
 * per request.
 */
public final class Drain {
    /** The ServletContext attribute under which the web application keeps its drain state. */
    public static final String ATTRIBUTE = Drain.class.getName();

    private volatile boolean draining;
    private volatile boolean closingConnections;

    /** Whether the server is stopping (not ready). */
    public boolean draining() {
        return draining;
    }

    /** Whether every answer must close its connection. */
    public boolean closingConnections() {
        return closingConnections;
    }

    /** The server is stopping: not ready any more. Irreversible; again is fine. */
    public void begin() {
        draining = true;
    }

    /** No new connection is accepted any more: close each open one after its next answer. Irreversible. */
    public void closeConnections() {
        draining = true;
        closingConnections = true;
    }
}
