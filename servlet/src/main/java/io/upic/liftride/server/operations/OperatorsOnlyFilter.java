package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.http.NotFoundServlet;
import io.upic.liftride.server.validation.Values;
import java.io.IOException;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.http.HttpFilter;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * In front of the operations endpoints ({@code /metrics}, {@code /admin/*}; web.xml maps it): anyone
 * but an {@link Operators operator} gets the JSON 404 of a path that does not exist, plus one sentence
 * saying who may ask. Stateless.
 */
public final class OperatorsOnlyFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (Operators.asked(request)) {
            chain.doFilter(request, response);
            return;
        }
        JsonResponses.message(
                response,
                HttpServletResponse.SC_NOT_FOUND,
                "no route for " + request.getMethod() + " " + Values.quote(NotFoundServlet.pathOf(request))
                        + " here: operations endpoints answer only requests straight from loopback or private"
                        + " addresses, not through a proxy");
    }
}
