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
import io.upic.liftride.server.store.StoreUnavailableException;
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
 * Allow}), hand over to the subclass and time it into {@link EndpointStats}. Subclasses keep no per-request state
 * in fields: many threads call them at once.
 */
abstract class RouteServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient EndpointStats stats;
    private int bodyDeadlineMillis;
    private transient Drain drain;
    /** Null when metrics are off. */
    private transient Metrics metrics;

    /**
     * Reads the endpoint statistics, the limits, the drain state and the metrics, then calls the subclass's
     * {@link #init()}.
     */
    @Override
    public final void init(ServletConfig config) throws ServletException {
        stats = ContextAttributes.require(config.getServletContext(), EndpointStats.ATTRIBUTE, EndpointStats.class);
        bodyDeadlineMillis = ContextAttributes.require(config.getServletContext(), Limits.ATTRIBUTE, Limits.class)
                .count(Limit.BODY_DEADLINE_MILLIS);
        drain = ContextAttributes.require(config.getServletContext(), Drain.ATTRIBUTE, Drain.class);
        metrics = (Metrics) config.getServletContext().getAttribute(Metrics.ATTRIBUTE);
        super.init(config);
    }

    /** How long a request body has to arrive whole ({@link Limit#BODY_DEADLINE_MILLIS}). */
    protected final int bodyDeadlineMillis() {
        return bodyDeadlineMillis;
    }

    /** The statistics every answered route is timed into. */
    protected final EndpointStats stats() {
        return stats;
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
            response.setHeader("Allow", route.allowHeader());
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    "method " + request.getMethod() + " is not allowed on " + route.template() + "; allowed: "
                            + route.allowHeader());
            return;
        }
        try {
            serve(match, method, request, response);
        } catch (StoreUnavailableException e) {
            unavailable(response, e);
        } catch (LimitReachedException e) {
            limitReached(response, e);
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

    /** {@link #storeUnavailable}, counted by its cause in the metrics (when on). */
    protected final void unavailable(HttpServletResponse response, StoreUnavailableException e) throws IOException {
        if (metrics != null) {
            metrics.unavailable(e.unavailableCause());
        }
        storeUnavailable(response, e);
    }

    /** 503 with Retry-After: the store did not answer in time; nothing the request asked was applied. */
    static void storeUnavailable(HttpServletResponse response, StoreUnavailableException e) throws IOException {
        if (response.isCommitted()) {
            throw e; // a body already went out: nothing left but to fail the exchange
        }
        response.resetBuffer();
        response.setHeader("Retry-After", Integer.toString(JsonResponses.RETRY_AFTER_SECONDS));
        JsonResponses.message(
                response,
                HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                "the ride store is unavailable (" + e.getMessage() + "); retry after "
                        + JsonResponses.RETRY_AFTER_SECONDS + " s");
    }

    /** 409: the store holds as many entries of a kind as its limit allows; nothing was applied. */
    static void limitReached(HttpServletResponse response, LimitReachedException e) throws IOException {
        if (response.isCommitted()) {
            throw e;
        }
        response.resetBuffer();
        JsonResponses.message(response, HttpServletResponse.SC_CONFLICT, e.getMessage());
    }
}
