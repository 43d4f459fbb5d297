package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.operations.ContextAttributes;
import io.upic.liftride.server.operations.EndpointStats;
import io.upic.liftride.server.operations.ManagementPort;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.store.RideStore;
import java.io.IOException;
import java.util.List;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /statistics}: APIStats, the per-endpoint latency {@link RouteServlet} measured plus the
 * store's ride count; on the {@link ManagementPort management port} also the store's address and
 * user and its durability. Thread-safe: its only field, the store, is set once in {@link #init()}.
 */
public final class StatisticsServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

    private transient RideStore store;

    @Override
    public void init() throws ServletException {
        store = ContextAttributes.require(getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
    }

    @Override
    protected boolean serves(Route route) {
        return route == Route.STATISTICS;
    }

    @Override
    protected void serve(RouteMatch match, HttpMethod method, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        List<EndpointStats.EndpointStat> endpoints = stats().snapshot();
        long ridesStored = store.ridesStored();
        boolean management = ManagementPort.received(request);
        JsonResponses.send(response, HttpServletResponse.SC_OK, json -> {
            json.beginObject().name("endpointStats").beginArray();
            for (EndpointStats.EndpointStat endpoint : endpoints) {
                json.beginObject()
                        .name("URL")
                        .value(endpoint.url())
                        .name("operation")
                        .value(endpoint.operation())
                        .name("mean")
                        .value(endpoint.meanMillis())
                        .name("max")
                        .value(endpoint.maxMillis())
                        .name("meanMicros")
                        .value(endpoint.meanMicros())
                        .name("maxMicros")
                        .value(endpoint.maxMicros())
                        .name("count")
                        .value(endpoint.count())
                        .endObject();
            }
            json.endArray().name("ridesStored").value(ridesStored);
            if (management) {
                json.name("store").value(store.description()).name("durability").value(store.durability());
            }
            json.endObject();
        });
    }
}
