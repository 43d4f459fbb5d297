package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.http.NotFoundServlet;
import io.upic.liftride.server.store.RideStore;
import java.io.IOException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /health/live} (the JVM answers) and {@code /health/ready} (the store answers a ping within {@link
 * OperatingSettings#pingDeadline()}, its queue is below half full, the server is not draining): 200 when UP, else
 * 503 with Retry-After; readiness's checks only on the {@link ManagementPort management port}. GET and HEAD only.
 * Thread-safe: its fields are set once in {@link #init()}.
 */
public final class HealthServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient RideStore store;
    private transient Drain drain;
    private transient StoreProbe probe;

    @Override
    public void init() throws ServletException {
        store = ContextAttributes.require(getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
        drain = ContextAttributes.require(getServletContext(), Drain.ATTRIBUTE, Drain.class);
        probe = ContextAttributes.require(getServletContext(), StoreProbe.class.getName(), StoreProbe.class);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = NotFoundServlet.pathOf(request);
        boolean live = path.equals("/health/live");
        if (!live && !path.equals("/health/ready")) {
            NotFoundServlet.noRoute(request, response, path);
            return;
        }
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            JsonResponses.methodNotAllowed(response, method, path, "GET, HEAD");
            return;
        }
        if (drain.closingConnections()) {
            response.setHeader("Connection", "close");
        }
        HealthReport report = live ? HealthReport.live() : ready();
        if (!report.up()) {
            response.setHeader("Retry-After", Integer.toString(JsonResponses.RETRY_AFTER_SECONDS));
        }
        JsonResponses.send(
                response,
                report.up() ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                live || ManagementPort.received(request) ? report.toJson() : report.statusJson());
    }

    private HealthReport ready() {
        HealthReport report = new HealthReport();
        report.check("draining", !drain.draining(), drain.draining() ? "the server is stopping" : "serving");
        StoreProbe.Outcome ping = probe.check();
        report.check("store", ping.up(), store.description() + ": " + ping.message());
        int queued = store.queuedRides();
        int limit = HealthReport.backlogLimit(store.queueCapacity());
        report.check("backlog", queued < limit, queued + " rides queued for the store, limit " + limit);
        return report;
    }
}
