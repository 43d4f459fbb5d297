package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.operations.EndpointStats;
import io.upic.liftride.server.operations.ManagementPort;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
        List<Object> endpoints = stats().snapshot().stream()
                .map(e -> JsonResponses.object(
                        "URL", e.url(), "operation", e.operation(), "mean", e.meanMillis(), "max", e.maxMillis(),
                        "meanMicros", e.meanMicros(), "maxMicros", e.maxMicros(), "count", e.count()))
                .collect(Collectors.toList());
        Map<String, Object> body = JsonResponses.object("endpointStats", endpoints, "ridesStored", store().ridesStored());
        if (ManagementPort.received(request)) {
            body.put("store", store().description());
            body.put("durability", store().durability());
        }
        JsonResponses.send(response, HttpServletResponse.SC_OK, body);
    }
}
