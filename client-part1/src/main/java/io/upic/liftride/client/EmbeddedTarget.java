package io.upic.liftride.client;

import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.operations.LiftRideListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The lift-ride server on embedded Tomcat 9 (same servlets as the WAR) at a free loopback port. Its lines (the
 * drain's steps when it stops) are kept in {@link #log()}, off the client's console. Thread-safe.
 */
public final class EmbeddedTarget implements LocalServer {

    private final List<String> log;
    private final EmbeddedServer server;

    private EmbeddedTarget(List<String> log, EmbeddedServer server) {
        this.log = log;
        this.server = server;
    }

    /** Starts the server on 127.0.0.1 at a free port. */
    public static LocalServer start() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, context -> {
            // this client is the server's only one: the whole of each limit is its budget
            context.addParameter(Limit.CLIENT_SHARE_PERCENT.property(), "100");
            context.getServletContext().setAttribute(LiftRideListener.LOG_ATTRIBUTE, (Consumer<String>) log::add);
        });
        return new EmbeddedTarget(log, server);
    }

    @Override
    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public List<String> log() {
        return List.copyOf(log);
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
