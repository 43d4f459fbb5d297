package io.upic.liftride.server.web;

import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import java.io.IOException;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;

/**
 * Times every request with {@link System#nanoTime()} into {@link EndpointStats}, under the route the
 * servlet recognised (reported with {@link #routeMatched}); requests to no route are not timed.
 * Thread-safe: its only field is set once in {@link #init}.
 *
 * <p>The route travels from servlet to filter in a thread-local slot, not a request attribute: both
 * run on the request's thread (no async), and Tomcat's setAttribute/getAttribute (special-attribute
 * lookup, a ConcurrentHashMap put, listener notification, the clear on recycle) cost about 6% of the
 * POST's CPU samples. The filter empties the slot after every request, so no request sees another's
 * route, and it holds only null between requests (no class-loader leak on undeploy).
 */
public final class TimingFilter implements Filter {
    /** The route the servlet of the current request matched; null between requests. */
    private static final ThreadLocal<Route> MATCHED = new ThreadLocal<>();

    private EndpointStats stats;

    /** Called by a servlet, on the request's thread, once it knows which route the request is for. */
    static void routeMatched(Route route) {
        MATCHED.set(route);
    }

    @Override
    public void init(FilterConfig config) throws ServletException {
        stats = ContextAttributes.require(config.getServletContext(), EndpointStats.ATTRIBUTE, EndpointStats.class);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (MATCHED.get() != null) {
            MATCHED.set(null); // left by a servlet that ran without this filter in front: not this request's
        }
        long start = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            Route route = MATCHED.get();
            if (route != null) {
                MATCHED.set(null);
                HttpMethod method = HttpMethod.parse(((HttpServletRequest) request).getMethod());
                if (method != null) {
                    stats.record(route, method, System.nanoTime() - start);
                }
            }
        }
    }
}
