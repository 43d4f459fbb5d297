package io.upic.liftride.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real 3-master Redis Cluster on 127.0.0.1 (no replicas), made with {@code redis-cli --cluster
 * create}, each node with the recommended configuration. Not thread-safe; {@link #close()} stops it.
 */
public final class RedisCluster implements AutoCloseable {
    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    public static RedisCluster start(int masters) {
        List<RedisServer> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                // the cluster bus listens on port + 10000, so stay below 55536
                int port = clusterPort();
                nodes.add(RedisServer.start(
                        port,
                        List.of(
                                "--cluster-enabled", "yes",
                                "--cluster-config-file", "nodes-" + port + ".conf",
                                "--cluster-node-timeout", "2000")));
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
            RedisCluster cluster = new RedisCluster(nodes);
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

    /** {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...}, as {@code --store} takes it. */
    public String url() {
        StringBuilder url = new StringBuilder("redis-cluster://");
        for (int i = 0; i < nodes.size(); i++) {
            url.append(i == 0 ? "" : ",")
                    .append("127.0.0.1:")
                    .append(nodes.get(i).port());
        }
        return url.toString();
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
