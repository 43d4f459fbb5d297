package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.operations.ManagementPort;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import java.io.IOException;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /statistics}: APIStats, the per-endpoint latency {@link RouteServlet} measured plus the
 * store's ride count; on the {@link ManagementPort management port} also the store's address and
 * user and its durability. Thread-safe: stateless.
 */
public final class StatisticsServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean serves(Route route) {
        return route == Route.STATISTICS;
    }

    @Override
    protected void serve(RouteMatch match, HttpMethod method, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Map<String, Object> body =
                JsonResponses.object("endpointStats", stats().snapshot(), "ridesStored", store().ridesStored());
        if (ManagementPort.received(request)) {
            body.put("store", store().description());
            body.put("durability", store().durability());
        }
        JsonResponses.send(response, HttpServletResponse.SC_OK, body);
    }
}
