package io.upic.liftride.server.http;

import io.upic.liftride.server.validation.Values;
import java.io.IOException;
import javax.servlet.DispatcherType;
import javax.servlet.RequestDispatcher;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The error page (web.xml sends every status and exception here): turns errors the container raises
 * itself, and any exception a servlet lets escape, into {@code {"message": "..."}} instead of HTML.
 * 5XX are reported by their reason phrase alone: exception text is for the server's log. Requested
 * directly, it is just a route that does not exist. Stateless.
 */
public final class ErrorServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getDispatcherType() != DispatcherType.ERROR) {
            NotFoundServlet.noRoute(request, response, NotFoundServlet.pathOf(request));
            return;
        }
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer ? (Integer) code : HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
        if (status < 400) {
            status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
        }
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        String text;
        if (status >= 500) {
            text = JsonResponses.reason(status);
        } else if (status == HttpServletResponse.SC_REQUEST_TIMEOUT) {
            text = "request was not received within the server's timeout";
        } else if (exception instanceof IOException) {
            // Tomcat's own read errors (e.g. a malformed chunked body): their text names the framing problem
            text = "request could not be read: " + Values.literal(JsonResponses.rootMessage((IOException) exception));
        } else if (message instanceof String && !((String) message).isBlank()) {
            text = (String) message;
        } else {
            text = JsonResponses.reason(status);
        }
        if (!response.isCommitted()) {
            response.resetBuffer();
            JsonResponses.message(response, status, text);
        }
    }
}
