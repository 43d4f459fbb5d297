package io.upic.liftride.cluster;

import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A LiftRide cluster on this machine's loopback: redis-server, N LiftRide server JVMs sharing it, and nginx
 * round robin in front, optionally with CPU-capped servers ({@link CpuCgroups}) and a WAN in front ({@link
 * WanLink}). Thread-safe; {@link #close()} stops everything it started, removes its cgroups and deletes
 * the run directory. Command line: {@link ClusterOptions}.
 */
public final class LocalCluster implements AutoCloseable {
    private static final String HOST = "127.0.0.1";
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    /** A Redis the user named should just answer. */
    private static final Duration EXISTING_REDIS_LIMIT = Duration.ofSeconds(10);

    private static final String SERVER_MAIN = "io.upic.liftride.server.embedded.EmbeddedServer";
    /** Each server's heap: its state lives in Redis, so little is needed. */
    private static final String SERVER_HEAP = "-Xmx512m";

    private final Path runDir;
    private final Spawner spawner = new Spawner();
    private final List<ChildProcess> servers = new ArrayList<>();
    private final List<Integer> serverPorts = new ArrayList<>();
    private final List<Integer> managementPorts = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private HostPort redisAddress;
    private Redis redis; // null when --redis names an existing one
    private final ClusterOptions options;
    private ChildProcess nginx;
    private int nginxPort;
    private CpuCgroups cgroups; // null without --server-cpus
    private Toxiproxy toxiproxy; // null without --wan-rtt
    private HostPort wanAddress;

    private LocalCluster(Path runDir, ClusterOptions options) {
        this.runDir = runDir;
        this.options = options;
    }

    /**
     * Starts Redis (unless {@code options.redis()} names one), the servers, nginx and optionally Toxiproxy,
     * and returns once the front answers {@code GET /liftride/health/ready} through every server.
     *
     * @throws IllegalArgumentException if the server jar is not a file
     * @throws IllegalStateException naming the process that did not start, with the end of its log
     */
    public static LocalCluster start(ClusterOptions options) {
        if (!Files.isRegularFile(options.serverJar())) {
            throw new IllegalArgumentException("--server-jar must be liftride-server.jar, no file at "
                    + options.serverJar() + " (build it: mvn -B -q -DskipTests package -pl servlet -am)");
        }
        LocalCluster cluster = new LocalCluster(Trees.temp("liftride-cluster-"), options);
        try {
            if (options.serverCpus() != null) {
                cluster.cgroups = CpuCgroups.open();
            }
            cluster.startRedis(options.redis());
            cluster.startServers(options.servers(), options.serverJar());
            cluster.startNginx(options.wan() != null || options.port() == 0 ? FreePorts.next() : options.port());
            if (options.wan() != null) {
                cluster.startWan(options.wan(), options.port());
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startRedis(HostPort existing) {
        if (existing != null) {
            redisAddress = existing;
            Redis.awaitPing(existing, EXISTING_REDIS_LIMIT);
            return;
        }
        redis = Redis.start(runDir.resolve("redis"), FreePorts.next(), List.of());
        redisAddress = redis.address();
    }

    private void startServers(int count, Path serverJar) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int i = 1; i <= count; i++) {
            int port = FreePorts.next();
            int managementPort = FreePorts.next();
            serverPorts.add(port);
            managementPorts.add(managementPort);
            List<String> command = capped(
                    "server" + i,
                    List.of(
                            java,
                            SERVER_HEAP,
                            "-XX:+ExitOnOutOfMemoryError",
                            "-cp",
                            serverJar.toString(),
                            SERVER_MAIN,
                            "--host",
                            HOST,
                            "--port",
                            Integer.toString(port),
                            "--management-port",
                            Integer.toString(managementPort),
                            "--store",
                            storeSpec()));
            servers.add(
                    launch(new ChildProcess("server" + i, command, runDir.resolve("server" + i + ".log"), spawner)));
        }
        for (int i = 0; i < count; i++) {
            awaitServer(i);
        }
    }

    /** {@code command} joining a cgroup of its own capped at --server-cpus first, or unchanged without it. */
    private List<String> capped(String name, List<String> command) {
        return cgroups == null ? command : CpuCgroups.wrap(cgroups.create(name, options.serverCpus()), command);
    }

    private void startNginx(int port) {
        nginxPort = port;
        nginx = launch(new NginxConf(port, serverPorts, runDir.resolve("nginx")).writeAndPrepare(spawner));
        for (int i = 0; i < serverPorts.size(); i++) { // round robin: one probe reaches each server
            nginx.await(START_LIMIT, () -> status(nginxUrl() + "/health/ready") == 200);
        }
    }

    /** Toxiproxy on {@code port} (0: a free one) in front of nginx, with a latency toxic each way. */
    private void startWan(WanLink wan, int port) {
        toxiproxy = Toxiproxy.start();
        wanAddress = toxiproxy.proxy("front", new HostPort(HOST, nginxPort), port);
        toxiproxy.latency("front", wan.rtt(), wan.jitter());
        Poll.until("the front through toxiproxy", START_LIMIT, () -> status(frontUrl() + "/health/ready") == 200);
    }

    private static ChildProcess launch(ChildProcess child) {
        child.start();
        return child;
    }

    /** The front URL clients use: nginx, or with a {@link WanLink} the Toxiproxy in front of it. */
    public String frontUrl() {
        return wanAddress == null ? nginxUrl() : "http://" + wanAddress + "/liftride";
    }

    /** nginx itself, bypassing any Toxiproxy. */
    public String nginxUrl() {
        return "http://" + HOST + ":" + nginxPort + "/liftride";
    }

    /** Each server's cgroup directory, in start order; empty without a CPU cap. */
    public List<Path> serverCgroups() {
        return cgroups == null ? List.of() : cgroups.groups();
    }

    /** Each server's own base URL, bypassing nginx, in start order. */
    public List<String> serverUrls() {
        return urls(serverPorts);
    }

    /** Each server's management port as a base URL, in start order. */
    public List<String> managementUrls() {
        return urls(managementPorts);
    }

    private static List<String> urls(List<Integer> ports) {
        return ports.stream()
                .map(port -> "http://" + HOST + ":" + port + "/liftride")
                .toList();
    }

    /** Where the servers' Redis listens. */
    public HostPort redisAddress() {
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

    /** SIGTERMs server {@code index} and waits for it to drain and exit; SIGKILLs it after 20 s. */
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
        ownRedis().restart();
    }

    private ChildProcess server(int index) {
        if (index < 0 || index >= servers.size()) {
            throw new IllegalArgumentException("server index must be in 0.." + (servers.size() - 1) + ", got " + index);
        }
        return servers.get(index);
    }

    private Redis ownRedis() {
        if (redis == null) {
            throw new IllegalStateException("Redis at " + redisAddress + " was not started by this cluster (--redis)");
        }
        return redis;
    }

    private void awaitServer(int index) {
        String url = serverUrls().get(index) + "/health/ready";
        servers.get(index).await(START_LIMIT, () -> status(url) == 200);
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
        if (nginx != null) {
            nginx.stop(STOP_GRACE);
        }
        if (toxiproxy != null) {
            toxiproxy.close();
        }
        servers.parallelStream().forEach(c -> c.stop(STOP_GRACE));
        if (redis != null) {
            redis.close(); // Redis writes its AOF out on SIGTERM
        }
        spawner.close();
        if (cgroups != null) {
            cgroups.close(); // after the servers: the kernel removes only empty groups
        }
        Trees.delete(runDir);
    }

    /** The processes, for the launcher's banner. */
    private void describe(PrintStream out) {
        out.println("LiftRide local cluster, run directory " + runDir);
        if (redis != null) {
            out.printf("  redis    %-34s pid %-7d AOF in %s%n", redisAddress, redis.pid(), redis.dir());
        } else {
            out.printf("  redis    %-34s (not started here)%n", redisAddress);
        }
        for (int i = 0; i < servers.size(); i++) {
            out.printf(
                    "  server%-2d %-34s pid %-7d port %d, management %s%s%n",
                    i + 1,
                    serverUrls().get(i),
                    servers.get(i).pid(),
                    serverPorts.get(i),
                    managementUrls().get(i),
                    cgroups == null
                            ? ""
                            : ", " + options.serverCpus() + " in cgroup "
                                    + serverCgroups().get(i));
        }
        out.printf(
                "  nginx    %-34s pid %-7d port %d, round robin over %d server(s)%n",
                nginxUrl(), nginx.pid(), nginxPort, servers.size());
        if (toxiproxy != null) {
            out.printf(
                    "  wan      %-34s pid %-7d port %d, toxiproxy %s in front of nginx, %s%n",
                    frontUrl(), toxiproxy.pid(), wanAddress.port(), Toxiproxy.VERSION, options.wan());
        }
        if (!spawner.childrenDieWithUs()) {
            out.println("  (no setpriv here: if this launcher is killed with SIGKILL, stop its children yourself)");
        }
    }

    /** The command line ({@link ClusterOptions#USAGE}): exit 2 on a bad flag, 1 if the cluster does not start. */
    public static void main(String[] args) throws InterruptedException {
        ClusterOptions options;
        try {
            options = ClusterOptions.parse(args);
        } catch (UsageException e) {
            System.err.println(e.getMessage());
            System.err.println(ClusterOptions.USAGE);
            System.exit(UsageException.EXIT_CODE);
            return;
        }
        if (options.help()) {
            System.out.println(ClusterOptions.USAGE);
            return;
        }
        LocalCluster cluster;
        try {
            cluster = start(options);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        } catch (RuntimeException e) {
            System.err.println("the local cluster did not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        runUntilStopped(cluster);
    }

    private static void runUntilStopped(LocalCluster cluster) throws InterruptedException {
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
}
