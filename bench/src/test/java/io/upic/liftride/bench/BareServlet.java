package io.upic.liftride.bench;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Answers every request with 201 and an empty body without looking at it (no path match, no method
 * check, no Content-Type, not a byte of the body read; Tomcat swallows the body after the answer, as
 * it does for any servlet that leaves it unread). wrk against it measures the container's floor —
 * Tomcat plus an empty servlet — beside the real POST endpoint. Mapped by {@link BareServer} only;
 * it lives in the bench module, so users never deploy it. Stateless.
 */
final class BareServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentLength(0);
    }
}
