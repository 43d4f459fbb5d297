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
 * The management port: Tomcat's connector whose executor is named {@value #EXECUTOR}. Only a request that arrived
 * there gets {@code /metrics}, {@code /admin/*} (elsewhere a JSON 404) and the store's details; no header plays a
 * part, and a shared port or no Tomcat is never it. Thread-safe: the connectors are fixed at start.
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
