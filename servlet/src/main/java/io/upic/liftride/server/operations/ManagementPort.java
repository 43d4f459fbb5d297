package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.NotFoundServlet;
import java.io.IOException;
import java.util.List;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.http.HttpFilter;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.Connector;

/**
 * The management port: Tomcat's connector whose executor is named {@value #EXECUTOR}
 * (servlet/tomcat/server.xml declares it, the embedded launcher adds it). Only a request that arrived
 * there gets {@code /metrics}, {@code /admin/*} (web.xml maps this filter in front of them; elsewhere
 * they are the JSON 404 of a path that does not exist) and the store's details in {@code /statistics}
 * and {@code /health/ready}; no header plays a part. A port that another connector shares, or no
 * Tomcat at all, is never the management port. Thread-safe: the connectors are fixed at start.
 */
public final class ManagementPort extends HttpFilter {
    /** The name of the management connector's executor, in server.xml and in the launcher. */
    public static final String EXECUTOR = "liftride-management";

    static final String ATTRIBUTE = ManagementPort.class.getName() + ".connectors";
    private static final long serialVersionUID = 1L;

    /** Whether {@code request} arrived on the management port. */
    public static boolean received(ServletRequest request) {
        if (!(request.getServletContext().getAttribute(ATTRIBUTE) instanceof List<?> connectors)) {
            return false;
        }
        boolean management = false;
        for (Object connector : connectors) {
            if (((Connector) connector).getLocalPort() == request.getLocalPort()) {
                if (!is((Connector) connector)) {
                    return false;
                }
                management = true;
            }
        }
        return management;
    }

    static boolean is(Connector connector) {
        return EXECUTOR.equals(connector.getExecutorName());
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (received(request)) {
            chain.doFilter(request, response);
        } else {
            NotFoundServlet.noRoute(request, response, NotFoundServlet.pathOf(request));
        }
    }
}
