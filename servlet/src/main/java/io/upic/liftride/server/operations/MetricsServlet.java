package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code GET /metrics}: every metric in the Prometheus text format, for a Prometheus server to scrape;
 * a JSON 404 naming the switch when metrics are off ({@value OperatingSettings#METRICS}=off). GET and
 * HEAD only. Stateless: the metrics are read from the ServletContext on each scrape.
 */
public final class MetricsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            JsonResponses.methodNotAllowed(response, method, "/metrics", "GET, HEAD");
            return;
        }
        if (!(getServletContext().getAttribute(Metrics.ATTRIBUTE) instanceof Metrics metrics)) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "metrics are off on this server (" + OperatingSettings.METRICS + "=off)");
            return;
        }
        byte[] text = metrics.scrape().getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(Metrics.CONTENT_TYPE);
        response.setContentLength(text.length);
        response.getOutputStream().write(text);
    }
}
