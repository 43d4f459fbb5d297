package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.store.redis.RedisRideStore;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;

/**
 * Which {@link RideStore} a deployment uses, as written by the user: {@code memory} (the default),
 * {@code redis://HOST:PORT} (one Redis server) or {@code redis-cluster://HOST:PORT[,HOST:PORT...]}
 * (a Redis Cluster, found through any of the nodes). Immutable.
 *
 * <p>Where it is read, first found wins: the launcher's {@code --store}, the system property
 * {@value #PROPERTY} (e.g. in {@code CATALINA_OPTS}), the environment variable {@value #ENV}.
 */
public record StoreSpec(Kind kind, List<HostAndPort> nodes) {
    public static final String PROPERTY = "liftride.store";
    public static final String ENV = "LIFTRIDE_STORE";
    public static final String DEFAULT = "memory";
    public static final String FORMS = "memory, redis://HOST:PORT or redis-cluster://HOST:PORT[,HOST:PORT...]";

    /** The kinds of store. */
    public enum Kind {
        MEMORY,
        REDIS,
        REDIS_CLUSTER
    }

    public StoreSpec {
        nodes = List.copyOf(nodes);
    }

    /** Parses the user's text; throws IllegalArgumentException with one line naming the rule and the value. */
    public static StoreSpec parse(String text) {
        String value = text == null ? "" : text.strip();
        if (value.equals(DEFAULT)) {
            return new StoreSpec(Kind.MEMORY, List.of());
        }
        if (value.startsWith("redis://")) {
            String rest = value.substring("redis://".length());
            if (rest.endsWith("/")) {
                rest = rest.substring(0, rest.length() - 1);
            }
            return new StoreSpec(Kind.REDIS, List.of(node(rest, text)));
        }
        if (value.startsWith("redis-cluster://")) {
            List<HostAndPort> nodes = new ArrayList<>();
            for (String node : value.substring("redis-cluster://".length()).split(",", -1)) {
                nodes.add(node(node, text));
            }
            return new StoreSpec(Kind.REDIS_CLUSTER, nodes);
        }
        throw bad(text, "");
    }

    /** The spec from the system property, else the environment variable, else {@code memory}. */
    public static StoreSpec fromEnvironment() {
        String property = System.getProperty(PROPERTY);
        if (property != null) {
            return parse(property);
        }
        String env = System.getenv(ENV);
        return parse(env != null ? env : DEFAULT);
    }

    /** Opens the store with the default limits. */
    public RideStore open() {
        return open(Limits.DEFAULTS);
    }

    /**
     * Opens the store: the in-memory one seeded with resorts 1..10 and bounded by {@code limits}, or a
     * client of Redis.
     */
    public RideStore open(Limits limits) {
        switch (kind) {
            case REDIS:
                return RedisRideStore.standalone(
                        nodes.get(0).getHost(), nodes.get(0).getPort(), RedisRideStore.Settings.DEFAULTS);
            case REDIS_CLUSTER:
                return RedisRideStore.cluster(nodes, RedisRideStore.Settings.DEFAULTS);
            default:
                return InMemoryRideStore.withSeedResorts(limits);
        }
    }

    @Override
    public String toString() {
        switch (kind) {
            case REDIS:
                return "redis://" + nodes.get(0);
            case REDIS_CLUSTER:
                StringBuilder b = new StringBuilder("redis-cluster://");
                for (int i = 0; i < nodes.size(); i++) {
                    b.append(i == 0 ? "" : ",").append(nodes.get(i));
                }
                return b.toString();
            default:
                return DEFAULT;
        }
    }

    private static HostAndPort node(String hostPort, String text) {
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // [::1]:6379
        }
        if (host.isEmpty() || host.contains("/") || host.contains("@") || host.contains(",")) {
            throw bad(text, "a host is missing or malformed; ");
        }
        if (colon < 0) {
            return new HostAndPort(host, 6379);
        }
        String portText = hostPort.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535 || !portText.chars().allMatch(Character::isDigit)) {
            throw bad(text, "the port must be an integer in 1..65535; ");
        }
        return new HostAndPort(host, port);
    }

    private static IllegalArgumentException bad(String text, String why) {
        return new IllegalArgumentException(
                "store must be " + FORMS + "; " + why + "got \"" + (text == null ? "" : text) + "\"");
    }
}
