package io.upic.liftride.server.embedded;

import io.upic.liftride.flags.UsageException;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.operations.ManagementPort;
import io.upic.liftride.server.operations.OperatingSettings;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.tomcat.JsonErrorReportValve;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.core.StandardThreadExecutor;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.ContextConfig;
import org.apache.catalina.startup.ExpandWar;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.RemoteIpValve;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.modeler.Registry;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * The LiftRide web application on an embedded Tomcat 9, at the same context path ({@value
 * #CONTEXT_PATH}) and from the same web.xml as liftride.war. Thread-safe; {@link #close()} is
 * idempotent. Operations ({@code /metrics}, {@code /admin/*}) answer only on the {@link ManagementPort
 * management port}: {@link #managementUrl()}.
 */
public final class EmbeddedServer implements AutoCloseable {
    public static final String CONTEXT_PATH = "/liftride";
    public static final int DEFAULT_PORT = 8080;
    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_MANAGEMENT_PORT = 8081;
    public static final String DEFAULT_MANAGEMENT_HOST = "127.0.0.1";
    /** The management port's request threads: enough for Prometheus and an operator, beside a saturated API. */
    private static final int MANAGEMENT_THREADS = 4;

    /** Strong references: java.util.logging forgets the level of loggers nobody holds. */
    private static final List<Logger> QUIETED_LOGGERS = List.of(
            Logger.getLogger("org.apache.catalina"),
            Logger.getLogger("org.apache.coyote"),
            Logger.getLogger("org.apache.tomcat"));

    private static final Consumer<Context> NO_CUSTOMIZER = context -> {};

    private final Tomcat tomcat;
    private final Path baseDir;
    private final String host;
    private final int port;
    private final String managementHost;
    private final int managementPort;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private EmbeddedServer(
            Tomcat tomcat, Path baseDir, String host, int port, String managementHost, int managementPort) {
        this.tomcat = tomcat;
        this.baseDir = baseDir;
        this.host = host;
        this.port = port;
        this.managementHost = managementHost;
        this.managementPort = managementPort;
    }

    /**
     * Starts the server on {@code host} and {@code port} (0 picks a free one), its management port on a
     * free port of 127.0.0.1; returns once it answers requests.
     *
     * @throws IllegalStateException if Tomcat or the web application does not start (e.g. the port is taken)
     */
    public static EmbeddedServer start(String host, int port) {
        return start(host, port, NO_CUSTOMIZER);
    }

    /**
     * {@link #start(String, int)}, with {@code customizer} called on the context once web.xml is applied
     * and before it starts; a customizer that throws fails the start.
     */
    public static EmbeddedServer start(String host, int port, Consumer<Context> customizer) {
        return start(host, port, DEFAULT_MANAGEMENT_HOST, 0, ConnectorSettings.LOAD_TEST, quickStop(customizer));
    }

    static EmbeddedServer start(String host, int port, ConnectorSettings settings) {
        return start(host, port, DEFAULT_MANAGEMENT_HOST, 0, settings, quickStop(NO_CUSTOMIZER));
    }

    /**
     * A server started from code drains without a grace period and within 5 s, unless the system
     * properties say otherwise; a customizer's own context parameters win.
     */
    private static Consumer<Context> quickStop(Consumer<Context> customizer) {
        return context -> {
            customizer.accept(context);
            for (String[] quick :
                    new String[][] {{OperatingSettings.DRAIN_GRACE, "0"}, {OperatingSettings.DRAIN_MAX, "5000"}}) {
                if (System.getProperty(quick[0]) == null && context.findParameter(quick[0]) == null) {
                    context.addParameter(quick[0], quick[1]);
                }
            }
        };
    }

    static EmbeddedServer start(
            String host,
            int port,
            String managementHost,
            int managementPort,
            ConnectorSettings settings,
            Consumer<Context> customizer) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException(
                    "host must be an address to bind, got " + (host == null ? "null" : "\"" + host + "\""));
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535, got " + port);
        }
        quietTomcatLogging();
        Path baseDir;
        try {
            baseDir = Files.createTempDirectory("liftride-tomcat-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Tomcat's base directory", e);
        }
        Tomcat tomcat = new Tomcat();
        try {
            Path docBase = writeDocBase(baseDir);
            tomcat.setBaseDir(baseDir.toString());

            Connector connector = connector(host, port);
            settings.applyTo(connector);
            tomcat.setConnector(connector);
            Connector management = managementConnector(tomcat.getService(), managementHost, managementPort);

            StandardHost standardHost = (StandardHost) tomcat.getHost();
            standardHost.setAutoDeploy(false);
            standardHost.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            // behind a trusted proxy (private and loopback addresses), the client whose per-client budget
            // a new entry uses is X-Forwarded-For's address
            standardHost.getPipeline().addValve(new RemoteIpValve());
            standardHost.addChild(webapp(tomcat, docBase, customizer));

            tomcat.start();
            int localPort = started(connector, host, port);
            int localManagementPort = started(management, managementHost, managementPort);
            StandardContext context = (StandardContext) standardHost.findChild(CONTEXT_PATH);
            if (context == null || !context.getState().isAvailable()) {
                throw new IllegalStateException("the LiftRide web application did not start; see Tomcat's log above");
            }
            return new EmbeddedServer(tomcat, baseDir, host, localPort, managementHost, localManagementPort);
        } catch (LifecycleException | IOException | RuntimeException e) {
            stopQuietly(tomcat);
            ExpandWar.delete(baseDir.toFile(), false);
            if (e instanceof IllegalStateException) {
                throw (IllegalStateException) e;
            }
            throw new IllegalStateException("cannot start the LiftRide server on " + host + ":" + port + ": " + e, e);
        }
    }

    /** The management connector, on its own pool {@value ManagementPort#EXECUTOR} that tells it apart. */
    private static Connector managementConnector(Service service, String host, int port) {
        StandardThreadExecutor executor = new StandardThreadExecutor();
        executor.setName(ManagementPort.EXECUTOR);
        executor.setNamePrefix(ManagementPort.EXECUTOR + "-");
        executor.setMaxThreads(MANAGEMENT_THREADS);
        executor.setMinSpareThreads(1);
        service.addExecutor(executor);
        Connector connector = connector(host, port);
        connector.getProtocolHandler().setExecutor(executor);
        service.addConnector(connector);
        return connector;
    }

    private static Connector connector(String host, int port) {
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(port);
        connector.setProperty("address", host);
        return connector;
    }

    /** The port {@code connector} listens on. */
    private static int started(Connector connector, String host, int port) {
        int localPort = connector.getLocalPort();
        if (connector.getState() != LifecycleState.STARTED || localPort <= 0) {
            throw new IllegalStateException("Tomcat's connector did not start on " + host + ":" + port + " (state "
                    + connector.getState() + "); is the port in use?");
        }
        return localPort;
    }

    /** The port the server listens on (the one picked when started with port 0). */
    public int port() {
        return port;
    }

    /** The API's base URL; a wildcard bind address is written as 127.0.0.1. */
    public String baseUrl() {
        return url(isWildcard(host) ? "127.0.0.1" : host, port);
    }

    /** The management port (the one picked when started with port 0). */
    public int managementPort() {
        return managementPort;
    }

    /** The management port's base URL, e.g. {@code http://127.0.0.1:54322/liftride}, written as {@link #baseUrl()}. */
    public String managementUrl() {
        return url(isWildcard(managementHost) ? "127.0.0.1" : managementHost, managementPort);
    }

    /** The context's URL on {@code host}, an IPv6 literal in brackets. */
    private static String url(String host, int port) {
        boolean ipv6 = host.indexOf(':') >= 0 && !host.startsWith("[");
        return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + port + CONTEXT_PATH;
    }

    /** Stops and destroys Tomcat and deletes its temporary directory; later calls do nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            stopQuietly(tomcat);
            ExpandWar.delete(baseDir.toFile(), false);
        } finally {
            stopped.countDown();
        }
    }

    /** The web application's context (tests inspect its mappings). */
    StandardContext context() {
        return (StandardContext) tomcat.getHost().findChild(CONTEXT_PATH);
    }

    /** Blocks until {@link #close()} has finished (e.g. from the Ctrl-C shutdown hook). */
    void awaitClose() throws InterruptedException {
        stopped.await();
    }

    /** Runs the server from the command line ({@link LaunchOptions}) until Ctrl-C or SIGTERM. */
    public static void main(String[] args) throws InterruptedException {
        runFromCommandLine(args, NO_CUSTOMIZER);
    }

    /** {@link #main}, with {@code customizer} applied as {@link #start(String, int, Consumer)} says. */
    public static void runFromCommandLine(String[] args, Consumer<Context> customizer) throws InterruptedException {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args);
        } catch (UsageException e) {
            System.err.println(e.getMessage() + " (--help lists the options)");
            System.exit(UsageException.EXIT_CODE);
            return;
        }
        if (options.help()) {
            System.out.println(LaunchOptions.USAGE);
            return;
        }
        OutOfMemoryHalt.install();
        StoreSpec store;
        OperatingSettings operating;
        ConnectorSettings connector;
        try { // checked before Tomcat starts
            store = options.store() != null ? options.store() : StoreSpec.fromEnvironment();
            Limits.resolve(name -> null);
            operating = OperatingSettings.read(System::getProperty);
            connector = ConnectorSettings.forLauncher(
                    System::getProperty, Runtime.getRuntime().availableProcessors());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        EmbeddedServer server;
        try {
            server = start(
                    options.host(),
                    options.port(),
                    options.managementHost(),
                    options.managementPort(),
                    connector,
                    withStore(store, withLimits(options.limits(), customizer)));
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopOnSignal(server, operating), "liftride-shutdown"));
        System.out.println("LiftRide server listening on " + url(options.host(), server.port()));
        System.out.println("LiftRide management port: " + url(options.managementHost(), server.managementPort())
                + " (/metrics, /admin/limits, the store in /statistics and /health/ready)");
        exposureWarning(options.host()).ifPresent(System.err::println);
        server.awaitClose();
    }

    /**
     * A warning for a non-loopback address: Tomcat alone does not hold off slow or idle clients, so a
     * buffering proxy belongs in front.
     */
    static Optional<String> exposureWarning(String host) {
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            loopback = false;
        }
        return loopback
                ? Optional.empty()
                : Optional.of("LiftRide server: " + host + " is reachable from other machines; without a buffering"
                        + " proxy in front (nginx, an ALB) slow readers and idle or trickling connections can keep"
                        + " other clients waiting: bind 127.0.0.1 behind nginx (docs/deploying.md)");
    }

    /** The shutdown hook; halts the JVM past the drain's maximum plus {@value #STORE_CLOSE_SECONDS} s. */
    private static void stopOnSignal(EmbeddedServer server, OperatingSettings settings) {
        long startNanos = System.nanoTime();
        long limitMillis = settings.drainMax().toMillis() + STORE_CLOSE_SECONDS * 1000L;
        System.out.println("LiftRide server stopping: draining (at most " + limitMillis + " ms)");
        CompletableFuture<Void> hardStop = CompletableFuture.runAsync(
                () -> {
                    System.out.println("LiftRide server did not stop within " + limitMillis + " ms: hard stop");
                    Runtime.getRuntime().halt(1);
                },
                CompletableFuture.delayedExecutor(limitMillis, TimeUnit.MILLISECONDS));
        server.close();
        hardStop.cancel(false);
        System.out.println(
                "LiftRide server stopped in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos) + " ms");
    }

    /** {@link #start(String, int)} with the rides in {@code store}, whatever the properties say. */
    public static EmbeddedServer start(String host, int port, StoreSpec store) {
        return start(host, port, withStore(store, NO_CUSTOMIZER));
    }

    /** The limit flags go to the web application as context parameters, which LiftRideListener reads first. */
    private static Consumer<Context> withLimits(Map<Limit, Long> limits, Consumer<Context> customizer) {
        return context -> {
            limits.forEach((limit, value) -> context.addParameter(limit.property(), Long.toString(value)));
            customizer.accept(context);
        };
    }

    /** Beyond the drain's maximum: the store's close (its group commit waits up to 5 s for its committers). */
    public static final int STORE_CLOSE_SECONDS = 10;

    /** The store goes to the web application as a context parameter, which LiftRideListener reads first. */
    private static Consumer<Context> withStore(StoreSpec store, Consumer<Context> customizer) {
        return context -> {
            context.addParameter(StoreSpec.PROPERTY, store.uri()); // toString() hides the password
            customizer.accept(context);
        };
    }

    private static StandardContext webapp(Tomcat tomcat, Path docBase, Consumer<Context> customizer) {
        StandardContext context = new StandardContext();
        context.setName(CONTEXT_PATH);
        context.setPath(CONTEXT_PATH);
        context.setDocBase(docBase.toString());
        context.setReloadable(false);
        // Never redeployed: the leak checks only print --add-opens warnings on Java 17.
        context.setClearReferencesObjectStreamClassCaches(false);
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        // our classes come from the launcher's class path, not from a WEB-INF/classes directory
        context.setParentClassLoader(EmbeddedServer.class.getClassLoader());
        // The API has no sessions, but every context has a manager that seeds a session-id generator at
        // start; Tomcat's default SHA1PRNG can take seconds to seed on a busy machine (and logs a warning).
        StandardManager sessions = new StandardManager();
        sessions.setSecureRandomAlgorithm(""); // the platform default, seeded from /dev/urandom
        sessions.setPathname(null); // nothing to persist across restarts
        context.setManager(sessions);
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false); // web.xml is metadata-complete: nothing to discover in jars
        scanner.setScanManifest(false);
        context.setJarScanner(scanner);
        ContextConfig config = new ContextConfig();
        config.setDefaultWebXml(tomcat.noDefaultWebXmlPath()); // only our web.xml: no JSP, no static files
        context.addLifecycleListener(config);
        // listeners run in the order they are added: after ContextConfig, web.xml is applied
        context.addLifecycleListener(event -> {
            if (Lifecycle.CONFIGURE_START_EVENT.equals(event.getType())) {
                customizer.accept(context);
            }
        });
        return context;
    }

    /** A document base holding only WEB-INF/web.xml, copied from the class path (see the POM). */
    private static Path writeDocBase(Path baseDir) throws IOException {
        Path webInf = Files.createDirectories(baseDir.resolve("webapp").resolve("WEB-INF"));
        try (InputStream webXml = EmbeddedServer.class.getResourceAsStream("web.xml")) {
            if (webXml == null) {
                throw new IllegalStateException("web.xml must be on the class path next to "
                        + EmbeddedServer.class.getName() + " (the build copies src/main/webapp/WEB-INF/web.xml there)");
            }
            Files.copy(webXml, webInf.resolve("web.xml"));
        }
        return webInf.getParent();
    }

    private static void quietTomcatLogging() {
        // start-up chatter and per-request parse warnings would flood a load test's console
        for (Logger logger : QUIETED_LOGGERS) {
            if (logger.getLevel() == null) {
                logger.setLevel(Level.WARNING);
            }
        }
        Registry.disableRegistry(); // no JMX beans: cheaper, and several servers in one JVM do not collide
    }

    private static boolean isWildcard(String host) {
        try {
            return InetAddress.getByName(host).isAnyLocalAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    private static void stopQuietly(Tomcat tomcat) {
        try {
            tomcat.stop();
        } catch (LifecycleException | RuntimeException ignored) {
            // destroy below still releases the port
        }
        try {
            tomcat.destroy();
        } catch (LifecycleException | RuntimeException ignored) {
            // nothing more can be done
        }
    }
}
