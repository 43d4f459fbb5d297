package io.upic.liftride.server.web;

import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The default servlet ({@code /}): every path that is not an API route gets a JSON 404, whatever the
 * method, instead of the container's static-file servlet. Stateless.
 */
public final class NotFoundServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        RouteServlet.noRoute(request, response, RouteServlet.pathOf(request));
    }
}
