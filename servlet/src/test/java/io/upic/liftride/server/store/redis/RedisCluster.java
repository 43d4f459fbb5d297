package io.upic.liftride.server.store.redis;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.cluster.Programs;
import io.upic.liftride.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real Redis Cluster on 127.0.0.1 (masters only, no replicas), made with {@code redis-cli --cluster
 * create}, each node with the recommended configuration; optionally with TLS, as ElastiCache's cluster mode
 * with in-transit encryption: clients on TLS ports, the cluster bus on TLS too, and a plain port per node
 * left for the test's own {@code redis-cli}. Not thread-safe; {@link #close()} stops it.
 */
public final class RedisCluster implements AutoCloseable {
    private final List<RedisServer> nodes;
    /** Each node's TLS port, in the order of {@link #nodes}; empty without TLS. */
    private final List<Integer> tlsPorts;

    private RedisCluster(List<RedisServer> nodes, List<Integer> tlsPorts) {
        this.nodes = nodes;
        this.tlsPorts = tlsPorts;
    }

    /** A cluster of {@code masters} nodes without TLS. */
    public static RedisCluster start(int masters) {
        return start(masters, null);
    }

    /**
     * A cluster of {@code masters} nodes whose clients and bus use TLS with {@code tls}'s certificate ({@code
     * tls-cluster yes}); {@link #url()} names the TLS ports.
     */
    public static RedisCluster startTls(int masters, TestCertificates tls) {
        return start(masters, tls);
    }

    private static RedisCluster start(int masters, TestCertificates tls) {
        List<RedisServer> nodes = new ArrayList<>();
        List<Integer> tlsPorts = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                // the cluster bus listens on port + 10000, so stay below 55536
                int port = clusterPort();
                List<String> args = new ArrayList<>(List.of(
                        "--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes-" + port + ".conf",
                        "--cluster-node-timeout", "2000"));
                if (tls != null) {
                    int tlsPort = FreePorts.next();
                    tlsPorts.add(tlsPort);
                    args.addAll(tls.redisArgs(tlsPort));
                    args.addAll(List.of("--tls-cluster", "yes", "--tls-replication", "yes"));
                }
                nodes.add(RedisServer.start(port, args));
            }
            List<String> create =
                    new ArrayList<>(List.of(Programs.require("redis-cli", "redis-tools"), "--cluster", "create"));
            for (RedisServer node : nodes) {
                create.add("127.0.0.1:" + node.port());
            }
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Programs.Result made = Programs.exec(Duration.ofSeconds(60), create);
            if (made.exitCode() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + made.tail(30));
            }
            RedisCluster cluster = new RedisCluster(nodes, List.copyOf(tlsPorts));
            cluster.awaitOk(Duration.ofSeconds(30));
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisServer::close);
            throw e;
        }
    }

    private static int clusterPort() {
        for (int i = 0; i < 100; i++) {
            int port = FreePorts.next();
            if (port < 55_000) {
                return port;
            }
        }
        return 20_000 + ThreadLocalRandom.current().nextInt(20_000);
    }

    private void awaitOk(Duration timeout) {
        Poll.until(
                "a cluster with cluster_state:ok",
                timeout,
                () -> nodes.stream().allMatch(n -> n.cli("CLUSTER", "INFO").contains("cluster_state:ok")));
    }

    public List<RedisServer> nodes() {
        return nodes;
    }

    /**
     * {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...}, as {@code --store} takes it; with TLS {@code
     * rediss-cluster://} and the TLS ports.
     */
    public String url() {
        return url("");
    }

    /** {@link #url()} with {@code userInfo} (e.g. {@code "liftride@"}) before the first host. */
    public String url(String userInfo) {
        StringBuilder url = new StringBuilder(tlsPorts.isEmpty() ? "redis-cluster://" : "rediss-cluster://");
        url.append(userInfo);
        for (int i = 0; i < nodes.size(); i++) {
            url.append(i == 0 ? "" : ",")
                    .append("127.0.0.1:")
                    .append(tlsPorts.isEmpty() ? nodes.get(i).port() : tlsPorts.get(i));
        }
        return url.toString();
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
