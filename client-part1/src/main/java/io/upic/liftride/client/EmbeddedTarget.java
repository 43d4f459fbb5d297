package io.upic.liftride.client;

import io.upic.liftride.server.embedded.EmbeddedServer;

/**
 * The lift-ride server on embedded Tomcat 9 (same servlets as the WAR) at a free loopback port.
 */
public final class EmbeddedTarget implements LocalServer {

    private final EmbeddedServer server;

    private EmbeddedTarget(EmbeddedServer server) {
        this.server = server;
    }

    /** Starts the server on 127.0.0.1 at a free port. */
    public static LocalServer start() throws Exception {
        return new EmbeddedTarget(EmbeddedServer.start("127.0.0.1", 0));
    }

    @Override
    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (Exception e) {
            // stopping is best effort at the end of a run; the process is about to exit anyway
        }
    }
}
