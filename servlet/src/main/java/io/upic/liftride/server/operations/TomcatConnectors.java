package io.upic.liftride.server.operations;

import java.util.List;
import java.util.Optional;
import javax.servlet.ServletContext;
import org.apache.catalina.Container;
import org.apache.catalina.Engine;
import org.apache.catalina.Globals;
import org.apache.catalina.Service;
import org.apache.catalina.WebResourceRoot;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * The Tomcat around this web application, found without JMX through {@link Globals#RESOURCES_ATTR}, and each
 * connector's threads and connections read live; works in the WAR and the embedded launcher. Stateless.
 */
final class TomcatConnectors {
    private TomcatConnectors() {}

    /** The Tomcat service this web application runs in; empty outside Tomcat. */
    static Optional<Service> service(ServletContext context) {
        if (!(context.getAttribute(Globals.RESOURCES_ATTR) instanceof WebResourceRoot resources)) {
            context.log("LiftRide: not on Tomcat (no " + Globals.RESOURCES_ATTR + "): no drain, no Tomcat metrics");
            return Optional.empty();
        }
        Container container = resources.getContext();
        while (container != null && !(container instanceof Engine)) {
            container = container.getParent();
        }
        return container == null ? Optional.empty() : Optional.ofNullable(((Engine) container).getService());
    }

    static List<Connector> connectors(Service service) {
        return List.of(service.findConnectors());
    }

    /** The connectors that serve the API: all but the {@link ManagementPort management port}. */
    static List<Connector> api(Service service) {
        return connectors(service).stream().filter(c -> !ManagementPort.is(c)).toList();
    }

    /** Connections the connector holds open now (in flight or idle kept-alive); -1 if it cannot say. */
    static double connections(Connector connector) {
        return connector.getProtocolHandler() instanceof AbstractProtocol<?> p ? p.getConnectionCount() : -1;
    }

    /** The most connections the connector holds open at once; -1 if it cannot say. */
    static double maxConnections(Connector connector) {
        return connector.getProtocolHandler() instanceof AbstractProtocol<?> p ? p.getMaxConnections() : -1;
    }

    /** Request threads working on a request now; 0 before the connector started. */
    static double busyThreads(Connector connector) {
        return connector.getProtocolHandler().getExecutor() instanceof ThreadPoolExecutor pool
                ? pool.getActiveCount()
                : 0;
    }

    /** Request threads that exist now, busy or idle. */
    static double currentThreads(Connector connector) {
        return connector.getProtocolHandler().getExecutor() instanceof ThreadPoolExecutor pool ? pool.getPoolSize() : 0;
    }

    /** The most request threads the connector runs. */
    static double maxThreads(Connector connector) {
        return connector.getProperty("maxThreads") instanceof Integer n ? n : -1;
    }

    /** Busy request threads summed over every connector. */
    static int busyThreads(List<Connector> connectors) {
        return (int)
                connectors.stream().mapToDouble(TomcatConnectors::busyThreads).sum();
    }
}
