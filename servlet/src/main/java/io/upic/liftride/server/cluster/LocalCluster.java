package io.upic.liftride.server.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import redis.clients.jedis.HostAndPort;

/**
 * A LiftRide cluster on this machine's loopback: redis-server with its AOF (servlet/redis/redis.conf,
 * data in the run directory), N LiftRide servers sharing it (each its own JVM of liftride-server.jar
 * with {@code --store redis://...}), and nginx round robin in front; every port free, except
 * the front's if given. Tests use it to kill and restart one server or Redis. Thread-safe; {@link
 * #close()} stops everything it started and deletes the run directory.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.start(ClusterOptions.DEFAULTS.withPort(0), serverJar)) {
 *   client.run(cluster.frontUrl());   // http://127.0.0.1:PORT/liftride through nginx
 *   cluster.killServer(1);             // SIGKILL
 * }
 * }</pre>
 *
 * <p>Command line: {@code java -cp liftride-server.jar io.upic.liftride.server.cluster.LocalCluster
 * [--servers N] [--redis HOST:PORT] [--port N]} ({@link ClusterOptions}). Ctrl-C or SIGTERM stops it;
 * if the launcher itself is killed, its children get SIGKILL from the kernel (see {@link Spawner}).
 */
public final class LocalCluster implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final String SERVER_MAIN = "io.upic.liftride.server.embedded.EmbeddedServer";
    /** Each server's heap: its state lives in Redis, so little is needed. */
    private static final String SERVER_HEAP = "-Xmx512m";

    private final Path runDir;
    private final Spawner spawner = new Spawner();
    private final PrintStream log;
    private final List<ChildProcess> started = new ArrayList<>();
    private final List<ChildProcess> servers = new ArrayList<>();
    private final List<Integer> serverPorts = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private HostAndPort redisAddress;
    private ChildProcess redis; // null when --redis names an existing one
    private ChildProcess nginx;
    private int frontPort;

    private LocalCluster(Path runDir, PrintStream log) {
        this.runDir = runDir;
        this.log = log;
    }

    /** Starts the cluster from the jar this class was loaded from (java -cp liftride-server.jar ...). */
    public static LocalCluster start(ClusterOptions options) {
        return start(options, ownJar(), System.err);
    }

    /**
     * Starts Redis (unless {@code options.redis()} names one), the servers from {@code serverJar} and nginx,
     * and returns once nginx answers {@code GET /liftride/health/ready} through every server.
     *
     * @param log where installing a missing program is reported
     * @throws IllegalStateException naming the process that did not start, with the end of its log
     */
    public static LocalCluster start(ClusterOptions options, Path serverJar, PrintStream log) {
        if (!Files.isRegularFile(serverJar)) {
            throw new IllegalArgumentException("serverJar must be liftride-server.jar, got " + serverJar
                    + " (build it: mvn -B -q -DskipTests package -pl servlet -am)");
        }
        Path runDir;
        try {
            runDir = Files.createTempDirectory("liftride-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the run directory", e);
        }
        LocalCluster cluster = new LocalCluster(runDir, log);
        try {
            cluster.startRedis(options.redis());
            cluster.startServers(options.servers(), serverJar);
            cluster.startNginx(options.port() == 0 ? freePort() : options.port());
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startRedis(HostAndPort existing) {
        if (existing != null) {
            redisAddress = existing;
            awaitRedis();
            return;
        }
        Path dir = mkdirs(runDir.resolve("redis"));
        Path conf = dir.resolve("redis.conf");
        try (InputStream recommended = LocalCluster.class.getResourceAsStream("redis.conf")) {
            if (recommended == null) {
                throw new IllegalStateException("redis.conf must be on the class path next to "
                        + getClass().getName() + " (the build copies servlet/redis/redis.conf there)");
            }
            Files.copy(recommended, conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        redisAddress = new HostAndPort(HOST, freePort());
        Path logFile = dir.resolve("redis.log");
        redis = launch(
                "redis",
                List.of(
                        Executables.require("redis-server", "redis-server", log),
                        conf.toString(),
                        "--port",
                        Integer.toString(redisAddress.getPort()),
                        "--bind",
                        HOST,
                        "--dir",
                        dir.toString(),
                        "--daemonize",
                        "no",
                        "--logfile",
                        logFile.toString()),
                logFile);
        awaitRedis();
    }

    private void startServers(int count, Path serverJar) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int i = 1; i <= count; i++) {
            int port = freePort();
            serverPorts.add(port);
            servers.add(launch(
                    "server" + i,
                    List.of(
                            java,
                            SERVER_HEAP,
                            "-cp",
                            serverJar.toString(),
                            SERVER_MAIN,
                            "--host",
                            HOST,
                            "--port",
                            Integer.toString(port),
                            "--store",
                            storeSpec()),
                    runDir.resolve("server" + i + ".log")));
        }
        for (int i = 0; i < count; i++) {
            awaitServer(i);
        }
    }

    private void startNginx(int port) {
        frontPort = port;
        nginx = launch(new NginxConf(port, serverPorts, runDir.resolve("nginx")).writeAndPrepare(spawner, log));
        for (int i = 0; i < serverPorts.size(); i++) { // round robin: one probe reaches each server
            awaitHttp(nginx, frontUrl() + "/health/ready");
        }
    }

    private ChildProcess launch(String name, List<String> command, Path logFile) {
        return launch(new ChildProcess(name, command, logFile, spawner));
    }

    private ChildProcess launch(ChildProcess child) {
        synchronized (started) {
            started.add(child);
        }
        child.start();
        return child;
    }

    /** The front: nginx, e.g. {@code http://127.0.0.1:8080/liftride}. */
    public String frontUrl() {
        return "http://" + HOST + ":" + frontPort + "/liftride";
    }

    /** Each server's own base URL, bypassing nginx, in start order. */
    public List<String> serverUrls() {
        return serverPorts.stream()
                .map(port -> "http://" + HOST + ":" + port + "/liftride")
                .toList();
    }

    /** Where the servers' Redis listens. */
    public HostAndPort redisAddress() {
        return redisAddress;
    }

    /** What every server was started with, e.g. {@code redis://127.0.0.1:6379}. */
    public String storeSpec() {
        return "redis://" + redisAddress;
    }

    /** The directory holding Redis's data, nginx's configuration and every process's log. */
    public Path runDir() {
        return runDir;
    }

    /** SIGKILLs server {@code index} (0-based, in {@link #serverUrls()} order); nginx keeps routing around it. */
    public void killServer(int index) {
        server(index).kill();
    }

    /**
     * SIGTERMs server {@code index}: it drains (not ready, a grace period, stops accepting, finishes what
     * is in flight) and exits; returns once it has, or SIGKILLs it after 20 s.
     */
    public void terminateServer(int index) {
        server(index).stop(STOP_GRACE);
    }

    /** Starts server {@code index} again on its port (SIGKILLing it first if it runs); returns once it answers. */
    public void restartServer(int index) {
        ChildProcess server = server(index);
        server.kill();
        server.start();
        awaitServer(index);
    }

    /** SIGKILLs the Redis this cluster started: nothing more reaches its AOF. */
    public void killRedis() {
        ownRedis().kill();
    }

    /** Starts Redis again on its port and directory (SIGKILLing it first if it runs); returns once it answers. */
    public void restartRedis() {
        ChildProcess own = ownRedis();
        own.kill();
        own.start();
        awaitRedis();
    }

    private ChildProcess server(int index) {
        if (index < 0 || index >= servers.size()) {
            throw new IllegalArgumentException("server index must be in 0.." + (servers.size() - 1) + ", got " + index);
        }
        return servers.get(index);
    }

    private ChildProcess ownRedis() {
        if (redis == null) {
            throw new IllegalStateException("Redis at " + redisAddress + " was not started by this cluster (--redis)");
        }
        return redis;
    }

    private void awaitServer(int index) {
        awaitHttp(servers.get(index), serverUrls().get(index) + "/health/ready");
    }

    private void awaitRedis() {
        String what = redis == null ? "Redis at " + redisAddress : "redis";
        // one we started may take a while to load its AOF; one the user named should just answer
        awaitUntil(what, redis, redis == null ? Duration.ofSeconds(10) : START_LIMIT, () -> pong(redisAddress));
    }

    /** Whether Redis answers PING with PONG (while it loads its AOF it answers -LOADING). */
    private static boolean pong(HostAndPort address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.getHost(), address.getPort()), 1_000);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = socket.getInputStream().readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException notYet) {
            return false;
        }
    }

    private void awaitHttp(ChildProcess child, String url) {
        awaitUntil(child.name(), child, START_LIMIT, () -> status(url) == 200);
    }

    private static void awaitUntil(String what, ChildProcess child, Duration limit, BooleanSupplier ready) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!ready.getAsBoolean()) {
            if (child != null) {
                child.requireAlive();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not answer within " + limit.toSeconds() + " s"
                        + (child == null ? "" : "; the end of its log:\n" + child.logTail()));
            }
            sleep(100);
        }
    }

    private static int status(String url) {
        try {
            HttpURLConnection connection =
                    (HttpURLConnection) new URI(url).toURL().openConnection();
            connection.setConnectTimeout(1_000);
            connection.setReadTimeout(5_000);
            try {
                int status = connection.getResponseCode();
                try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                    if (body != null) {
                        body.readAllBytes();
                    }
                }
                return status;
            } finally {
                connection.disconnect();
            }
        } catch (IOException | URISyntaxException notYet) {
            return -1;
        }
    }

    /** Stops nginx, the servers, then Redis (each SIGTERM, then SIGKILL after 20 s), and deletes the run directory. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<ChildProcess> all;
        synchronized (started) {
            all = new ArrayList<>(started);
        }
        if (nginx != null) {
            nginx.stop(STOP_GRACE);
        }
        all.stream().filter(c -> c != nginx && c != redis).parallel().forEach(c -> c.stop(STOP_GRACE));
        if (redis != null) {
            redis.stop(STOP_GRACE); // Redis writes its AOF out on SIGTERM
        }
        spawner.close();
        deleteTree(runDir);
    }

    /** The processes, for the launcher's banner. */
    private void describe(PrintStream out) {
        out.println("LiftRide local cluster, run directory " + runDir);
        if (redis != null) {
            out.printf("  redis    %-34s pid %-7d AOF in %s%n", redisAddress, redis.pid(), runDir.resolve("redis"));
        } else {
            out.printf("  redis    %-34s (not started here)%n", redisAddress);
        }
        for (int i = 0; i < servers.size(); i++) {
            out.printf(
                    "  server%-2d %-34s pid %-7d port %d%n",
                    i + 1, serverUrls().get(i), servers.get(i).pid(), serverPorts.get(i));
        }
        out.printf(
                "  nginx    %-34s pid %-7d port %d, round robin over %d server(s)%n",
                frontUrl(), nginx.pid(), frontPort, servers.size());
        if (!spawner.childrenDieWithUs()) {
            out.println("  (no setpriv here: if this launcher is killed with SIGKILL, stop its children yourself)");
        }
    }

    /** The command line; see {@link ClusterOptions#USAGE}. Exit 2 on a bad flag, 1 if the cluster does not start. */
    public static void main(String[] args) throws InterruptedException {
        ClusterOptions options;
        try {
            options = ClusterOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(ClusterOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(ClusterOptions.USAGE);
            return;
        }
        LocalCluster cluster;
        try {
            cluster = start(options);
        } catch (RuntimeException e) {
            System.err.println("the local cluster did not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            cluster.close();
                            stopped.countDown();
                        },
                        "local-cluster-shutdown"));
        cluster.describe(System.out);
        System.out.println("LiftRide cluster listening on " + cluster.frontUrl());
        System.out.println("Ctrl-C stops everything");
        stopped.await();
    }

    private static Path ownJar() {
        try {
            Path location = Path.of(LocalCluster.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (!location.toString().endsWith(".jar")) {
                throw new IllegalStateException(
                        "not started from liftride-server.jar (" + location + "): use start(options, serverJar, log)");
            }
            return location;
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate liftride-server.jar: " + e.getMessage(), e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }

    static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
