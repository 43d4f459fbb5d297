package io.upic.liftride.server.http;

import io.upic.liftride.server.validation.Values;
import java.io.IOException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The default servlet ({@code /}): every path that is not an API route gets a JSON 404, whatever the
 * method, instead of the container's static-file servlet; the 404 of every servlet that has no such
 * path. Stateless.
 */
public final class NotFoundServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        noRoute(request, response, pathOf(request));
    }

    /** The path below the context path, decoded: what the routes are written against. */
    public static String pathOf(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        return pathInfo == null ? servletPath : servletPath + pathInfo;
    }

    /**
     * A JSON 404 naming the method, the path and the routes; the method needs no quoting: Tomcat accepts
     * only HTTP token characters there.
     */
    public static void noRoute(HttpServletRequest request, HttpServletResponse response, String path)
            throws IOException {
        JsonResponses.message(
                response,
                HttpServletResponse.SC_NOT_FOUND,
                "no route for " + request.getMethod() + " " + Values.quote(path)
                        + "; routes are /skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID},"
                        + " /skiers/{skierID}/vertical, /resorts, /resorts/{resortID}/seasons,"
                        + " /resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers and /statistics"
                        + " (and /health/live, /health/ready; /metrics and /admin/limits on the management port)");
    }
}
