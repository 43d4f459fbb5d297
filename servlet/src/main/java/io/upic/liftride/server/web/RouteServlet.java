package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.http.NotFoundServlet;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.operations.ContextAttributes;
import io.upic.liftride.server.operations.Drain;
import io.upic.liftride.server.operations.EndpointStats;
import io.upic.liftride.server.operations.Metrics;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.routing.Routes;
import io.upic.liftride.server.store.LimitReachedException;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.validation.Result;
import java.io.IOException;
import javax.servlet.AsyncEvent;
import javax.servlet.AsyncListener;
import javax.servlet.ServletConfig;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The steps every API servlet shares: route ({@link Route}, else 404), check the method (else 405 with {@code
 * Allow}), hand over to the subclass, answer its refusals ({@link #fail}) and time it into {@link EndpointStats}.
 * Subclasses keep no per-request state in fields: many threads call them at once.
 */
abstract class RouteServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient EndpointStats stats;
    private transient RideStore store;
    private int bodyDeadlineMillis;
    private transient Drain drain;
    /** Null when metrics are off. */
    private transient Metrics metrics;

    /** Reads the shared objects {@link ContextAttributes} names. */
    @Override
    public final void init(ServletConfig config) throws ServletException {
        stats = ContextAttributes.require(config.getServletContext(), EndpointStats.ATTRIBUTE, EndpointStats.class);
        store = ContextAttributes.require(config.getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
        bodyDeadlineMillis = ContextAttributes.require(config.getServletContext(), Limits.ATTRIBUTE, Limits.class)
                .count(Limit.BODY_DEADLINE_MILLIS);
        drain = ContextAttributes.require(config.getServletContext(), Drain.ATTRIBUTE, Drain.class);
        metrics = (Metrics) config.getServletContext().getAttribute(Metrics.ATTRIBUTE);
        super.init(config);
    }

    /** The statistics every answered route is timed into. */
    protected final EndpointStats stats() {
        return stats;
    }

    protected final RideStore store() {
        return store;
    }

    /** Which routes this servlet serves; the others are 404 here (its URL pattern should prevent them). */
    protected abstract boolean serves(Route route);

    /** Serves a request whose path has {@code match}'s shape and whose method the route allows. */
    protected abstract void serve(
            RouteMatch match, HttpMethod method, HttpServletRequest request, HttpServletResponse response)
            throws IOException;

    @Override
    protected final void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long startNanos = System.nanoTime();
        if (drain.closingConnections()) {
            response.setHeader("Connection", "close"); // the server is stopping: no next request on this connection
        }
        String path = NotFoundServlet.pathOf(request);
        RouteMatch match = Routes.match(path);
        if (match == null || !serves(match.route())) {
            NotFoundServlet.noRoute(request, response, path);
            return;
        }
        Route route = match.route();
        HttpMethod method = HttpMethod.parse(request.getMethod());
        if (!route.allows(method)) {
            JsonResponses.methodNotAllowed(response, request.getMethod(), route.template(), route.allowHeader());
            return;
        }
        try {
            serve(match, method, request, response);
        } catch (Result.Rejected | StoreUnavailableException | LimitReachedException e) {
            fail(response, e);
        } finally {
            if (request.isAsyncStarted()) {
                // Async (a non-blocking read, or a later answer): time to the end. No async callback runs before
                // service() returns, so the listener is in time.
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        stats.record(route, method, response.getStatus(), System.nanoTime() - startNanos);
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {}

                    @Override
                    public void onError(AsyncEvent event) {}

                    @Override
                    public void onStartAsync(AsyncEvent event) {}
                });
            } else {
                stats.record(route, method, response.getStatus(), System.nanoTime() - startNanos);
            }
        }
    }

    /**
     * Reads a JSON body ({@link RequestBodies#readJson}) within {@link Limit#BODY_DEADLINE_MILLIS}; {@code then}'s
     * refusals are answered by {@link #fail}, on whichever thread it runs.
     */
    protected final void readJson(
            HttpServletRequest request, HttpServletResponse response, RequestBodies.BodyHandler then)
            throws IOException {
        RequestBodies.readJson(request, response, bodyDeadlineMillis, body -> {
            try {
                then.accept(body);
            } catch (Result.Rejected | StoreUnavailableException | LimitReachedException e) {
                fail(response, e);
            }
        });
    }

    /**
     * Answers a request that could not be done: its 4XX for a rejection, 409 for a limit (nothing applied), else
     * 503 with Retry-After, counted by its cause in the metrics (the store did not answer; nothing applied).
     */
    protected final void fail(HttpServletResponse response, Throwable failure) throws IOException {
        if (response.isCommitted()) {
            throw failure instanceof RuntimeException e ? e : StoreUnavailableException.of(failure); // a body went out
        }
        response.resetBuffer();
        if (failure instanceof Result.Rejected rejected) {
            JsonResponses.reject(response, rejected.rejection());
        } else if (failure instanceof LimitReachedException limit) {
            JsonResponses.message(response, HttpServletResponse.SC_CONFLICT, limit.getMessage());
        } else {
            StoreUnavailableException e = StoreUnavailableException.of(failure);
            if (metrics != null) {
                metrics.unavailable(e.unavailableCause());
            }
            JsonResponses.unavailable(
                    response,
                    "the ride store is unavailable (" + e.getMessage() + "); retry after "
                            + JsonResponses.RETRY_AFTER_SECONDS + " s");
        }
    }
}
