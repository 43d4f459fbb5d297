package io.upic.liftride.server.embedded;

import io.upic.liftride.server.limits.Limits;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.catalina.connector.Connector;

/**
 * The HTTP connector settings of a load-test server: the embedded launcher applies them and {@link
 * #serverXmlConnector(String, String)} writes the same values for {@code servlet/tomcat/server.xml} (checked by a
 * test); immutable.
 *
 * @param maxThreads request-processing threads: bounds running requests, not connections
 * @param minSpareThreads threads kept ready between bursts
 * @param acceptCount the listen backlog, large so that hundreds of threads starting at once are not refused
 * @param maxConnections connections held open at once; sized so busy connections fit a 256 MiB heap
 * @param connectionTimeoutMillis how long the server waits for request bytes once a connection sent some
 * @param keepAliveTimeoutMillis how long an idle keep-alive connection stays open between requests
 * @param maxKeepAliveRequests requests per connection; -1 = unlimited
 * @param maxSwallowSize body bytes Tomcat discards after an early answer before closing instead
 * @param maxPostSize form bodies Tomcat parses itself; the API limits JSON separately
 * @param maxHttpHeaderSize request line plus headers
 */
public record ConnectorSettings(
        int maxThreads,
        int minSpareThreads,
        int acceptCount,
        int maxConnections,
        int connectionTimeoutMillis,
        int keepAliveTimeoutMillis,
        int maxKeepAliveRequests,
        int maxSwallowSize,
        int maxPostSize,
        int maxHttpHeaderSize) {

    /** The settings the launcher uses and docs/server.md documents. */
    public static final ConnectorSettings LOAD_TEST =
            new ConnectorSettings(256, 32, 1024, 1_000, 10_000, 60_000, -1, 64 * 1024, 4096, 8192);

    public ConnectorSettings {
        if (minSpareThreads > maxThreads) {
            throw new IllegalArgumentException(
                    "minSpareThreads must be <= maxThreads (" + maxThreads + "), got " + minSpareThreads);
        }
    }

    /** System property: the launcher's {@code maxThreads} instead of {@link #forProcessors}' (benchmarks). */
    public static final String MAX_THREADS_PROPERTY = "liftride.http.maxThreads";

    /** System property: the launcher's {@code minSpareThreads} (benchmarks); at most {@code maxThreads}. */
    public static final String MIN_SPARE_THREADS_PROPERTY = "liftride.http.minSpareThreads";

    /** The request threads of a server whose JVM sees one CPU (a small instance, or a server capped below one). */
    public static final int ONE_CPU_THREADS = 4;

    /**
     * {@link #LOAD_TEST}, except that a JVM with one CPU runs {@value #ONE_CPU_THREADS} request threads:
     * a few threads taking a burst's tasks in turn cost less CPU than parking and waking hundreds.
     */
    public static ConnectorSettings forProcessors(int processors) {
        if (processors < 1) {
            throw new IllegalArgumentException("processors < 1: " + processors);
        }
        return processors == 1 ? LOAD_TEST.withThreads(ONE_CPU_THREADS, ONE_CPU_THREADS) : LOAD_TEST;
    }

    /**
     * {@link #forProcessors}, with the thread pool from {@value #MAX_THREADS_PROPERTY} and {@value
     * #MIN_SPARE_THREADS_PROPERTY} (null when not set); spare threads are capped at maxThreads.
     *
     * @throws IllegalArgumentException naming the property whose value is not valid
     */
    public static ConnectorSettings forLauncher(UnaryOperator<String> properties, int processors) {
        ConnectorSettings base = forProcessors(processors);
        int max = (int) Limits.setting(properties, MAX_THREADS_PROPERTY, base.maxThreads(), 1, Integer.MAX_VALUE);
        int spare = (int) Limits.setting(
                properties, MIN_SPARE_THREADS_PROPERTY, Math.min(base.minSpareThreads(), max), 0, Integer.MAX_VALUE);
        return base.withThreads(max, spare);
    }

    /** A copy with another request-thread pool. */
    public ConnectorSettings withThreads(int maxThreads, int minSpareThreads) {
        return new ConnectorSettings(
                maxThreads,
                minSpareThreads,
                acceptCount,
                maxConnections,
                connectionTimeoutMillis,
                keepAliveTimeoutMillis,
                maxKeepAliveRequests,
                maxSwallowSize,
                maxPostSize,
                maxHttpHeaderSize);
    }

    /** The settings as Tomcat connector attributes, in the order server.xml lists them. */
    public Map<String, String> attributes() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("maxThreads", Integer.toString(maxThreads));
        attributes.put("minSpareThreads", Integer.toString(minSpareThreads));
        attributes.put("acceptCount", Integer.toString(acceptCount));
        attributes.put("maxConnections", Integer.toString(maxConnections));
        attributes.put("connectionTimeout", Integer.toString(connectionTimeoutMillis));
        attributes.put("keepAliveTimeout", Integer.toString(keepAliveTimeoutMillis));
        attributes.put("maxKeepAliveRequests", Integer.toString(maxKeepAliveRequests));
        attributes.put("maxSwallowSize", Integer.toString(maxSwallowSize));
        attributes.put("maxPostSize", Integer.toString(maxPostSize));
        attributes.put("maxHttpHeaderSize", Integer.toString(maxHttpHeaderSize));
        // bind the port in start, not init: only then can the graceful drain close the listening socket
        // before Tomcat stops (Tomcat's closeServerSocketGraceful works only for a socket bound on start)
        attributes.put("bindOnInit", "false");
        // "100 Continue" only once the application reads the body: a 413 or 415 answered from the headers
        // goes out instead, and the client never sends the body it was about to refuse
        attributes.put("continueResponseTiming", "onRead");
        return attributes;
    }

    /** Applies every setting; fails loudly if Tomcat does not know one (a renamed attribute). */
    void applyTo(Connector connector) {
        for (Map.Entry<String, String> attribute : attributes().entrySet()) {
            if (attribute.getKey().equals("maxPostSize")) {
                connector.setMaxPostSize(maxPostSize); // a Connector attribute, not a protocol one
            } else if (!connector.setProperty(attribute.getKey(), attribute.getValue())) {
                throw new IllegalStateException(
                        "Tomcat's connector must accept " + attribute.getKey() + ", it refused it");
            }
        }
    }

    /**
     * The {@code <Connector>} element for a standalone Tomcat's conf/server.xml; the thread pool reads
     * {@value #MAX_THREADS_PROPERTY} and {@value #MIN_SPARE_THREADS_PROPERTY}, defaulting to these values.
     *
     * @param port    the port attribute: a number, or a Tomcat property reference such as
     *                {@code ${liftride.http.port:-8080}}
     * @param address the address attribute, likewise
     */
    public String serverXmlConnector(String port, String address) {
        StringBuilder xml = new StringBuilder("<Connector port=\"")
                .append(port)
                .append("\" address=\"")
                .append(address)
                .append("\" protocol=\"org.apache.coyote.http11.Http11NioProtocol\"");
        Map<String, String> properties =
                Map.of("maxThreads", MAX_THREADS_PROPERTY, "minSpareThreads", MIN_SPARE_THREADS_PROPERTY);
        for (Map.Entry<String, String> attribute : attributes().entrySet()) {
            String property = properties.get(attribute.getKey());
            xml.append("\n           ")
                    .append(attribute.getKey())
                    .append("=\"")
                    .append(
                            property == null
                                    ? attribute.getValue()
                                    : "${" + property + ":-" + attribute.getValue() + "}")
                    .append('"');
        }
        return xml.append(" />").toString();
    }
}
