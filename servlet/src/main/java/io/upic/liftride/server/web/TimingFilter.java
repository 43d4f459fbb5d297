package io.upic.liftride.server.web;

import io.upic.liftride.server.validation.HttpMethod;
import io.upic.liftride.server.validation.Route;
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
 * servlet recognised (the {@link #ROUTE_ATTRIBUTE} request attribute); requests to no route are not
 * timed. Thread-safe: its only field is set once in {@link #init}.
 */
public final class TimingFilter implements Filter {
  /** Request attribute holding the {@link Route} a servlet matched. */
  public static final String ROUTE_ATTRIBUTE = Route.class.getName();

  private EndpointStats stats;

  @Override
  public void init(FilterConfig config) throws ServletException {
    stats = ContextAttributes.require(config.getServletContext(), EndpointStats.ATTRIBUTE, EndpointStats.class);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    long start = System.nanoTime();
    try {
      chain.doFilter(request, response);
    } finally {
      Object route = request.getAttribute(ROUTE_ATTRIBUTE);
      if (route instanceof Route) {
        HttpMethod method = HttpMethod.parse(((HttpServletRequest) request).getMethod());
        if (method != null) {
          stats.record((Route) route, method, System.nanoTime() - start);
        }
      }
    }
  }
}
