package io.upic.liftride.server.operations;

import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.store.InMemoryRideStore;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.redis.RedisAccess;
import io.upic.liftride.server.store.redis.RedisRideStore;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;

/**
 * Which {@link RideStore} a deployment uses: {@code memory} (the default), {@code redis://HOST:PORT} or {@code
 * redis-cluster://HOST:PORT[,...]} ({@code rediss} for TLS), with an optional {@code USER:PASSWORD@} or the
 * password from {@value #PASSWORD_ENV}. Read from {@code --store}, then {@value #PROPERTY}, then {@value #ENV}.
 * Immutable; neither {@link #toString()} nor any refusal ever shows the password.
 */
public record StoreSpec(Kind kind, List<HostAndPort> nodes, RedisAccess access) {
    public static final String PROPERTY = "liftride.store";
    public static final String ENV = "LIFTRIDE_STORE";
    public static final String PASSWORD_ENV = "LIFTRIDE_REDIS_PASSWORD";
    public static final String DEFAULT = "memory";
    public static final String FORMS = "memory, redis[s]://[USER[:PASSWORD]@]HOST:PORT or"
            + " redis[s]-cluster://[USER[:PASSWORD]@]HOST:PORT[,HOST:PORT...]";

    /** The kinds of store. */
    public enum Kind {
        MEMORY,
        REDIS,
        REDIS_CLUSTER
    }

    public StoreSpec {
        nodes = List.copyOf(nodes);
        access = access == null ? RedisAccess.PLAIN : access;
    }

    /** A store without TLS or credentials. */
    public StoreSpec(Kind kind, List<HostAndPort> nodes) {
        this(kind, nodes, RedisAccess.PLAIN);
    }

    /**
     * Parses the user's text, the password from {@value #PASSWORD_ENV} if the text has none; throws
     * IllegalArgumentException with one line naming the rule and the value (its password hidden).
     */
    public static StoreSpec parse(String text) {
        return parse(text, System.getenv(PASSWORD_ENV));
    }

    /** {@link #parse(String)} with {@code envPassword} (null: none) standing for {@value #PASSWORD_ENV}. */
    public static StoreSpec parse(String text, String envPassword) {
        String value = text == null ? "" : text.strip();
        if (value.equals(DEFAULT)) {
            return new StoreSpec(Kind.MEMORY, List.of());
        }
        for (String scheme : List.of("redis", "rediss", "redis-cluster", "rediss-cluster")) {
            if (value.startsWith(scheme + "://")) {
                return redis(scheme, value.substring(scheme.length() + 3), envPassword, text);
            }
        }
        throw bad(text, "");
    }

    private static StoreSpec redis(String scheme, String rest, String envPassword, String text) {
        boolean cluster = scheme.endsWith("-cluster");
        int at = rest.lastIndexOf('@');
        String userInfo = at < 0 ? null : rest.substring(0, at);
        String hosts = rest.substring(at + 1);
        if (!cluster && hosts.endsWith("/")) {
            hosts = hosts.substring(0, hosts.length() - 1);
        }
        List<HostAndPort> nodes = new ArrayList<>();
        for (String node : hosts.split(",", -1)) {
            nodes.add(node(node, text));
        }
        if (!cluster && nodes.size() != 1) {
            throw bad(text, "one host for " + scheme + "://, several for " + scheme + "-cluster://; ");
        }
        RedisAccess access;
        try {
            access = access(scheme.startsWith("rediss"), userInfo, envPassword, text);
        } catch (IllegalArgumentException e) {
            throw bad(text, e.getMessage() + "; ");
        }
        return new StoreSpec(cluster ? Kind.REDIS_CLUSTER : Kind.REDIS, nodes, access);
    }

    private static RedisAccess access(boolean tls, String userInfo, String envPassword, String text) {
        String password = envPassword == null || envPassword.isEmpty() ? null : envPassword;
        if (userInfo == null) {
            return new RedisAccess(tls, null, password);
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), text);
        if (colon >= 0) {
            password = decode(userInfo.substring(colon + 1), text);
        }
        return new RedisAccess(tls, user, password);
    }

    private static String decode(String encoded, String text) {
        try {
            return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw bad(text, "a %-escape in the user or password is malformed; "); // not e: it quotes the text
        }
    }

    /** The spec from the system property, else the environment variable, else {@code memory}; errors name both. */
    public static StoreSpec fromEnvironment() {
        String property = System.getProperty(PROPERTY);
        String env = System.getenv(ENV);
        try {
            return parse(property != null ? property : env != null ? env : DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " / " + ENV + ": " + e.getMessage(), e);
        }
    }

    /** Opens the store with the default limits. */
    public RideStore open() {
        return open(Limits.DEFAULTS);
    }

    /** Opens the store bounded by {@code limits}: in memory (resorts 1..10) or Redis. */
    public RideStore open(Limits limits) {
        RideStore store;
        switch (kind) {
            case REDIS:
                store = RedisRideStore.standalone(nodes.get(0), access, RedisRideStore.Settings.fromSystemProperties());
                break;
            case REDIS_CLUSTER:
                store = RedisRideStore.cluster(nodes, access, RedisRideStore.Settings.fromSystemProperties());
                break;
            default:
                return InMemoryRideStore.withSeedResorts(limits);
        }
        store.setLimits(limits);
        return store;
    }

    /** As the user would type it, the password as {@code ***}: safe to log and to show. */
    @Override
    public String toString() {
        return kind == Kind.MEMORY ? DEFAULT : text(access.shownUserInfo());
    }

    /** The text {@link #parse} reads back to this, password included: never for showing. */
    public String uri() {
        if (kind == Kind.MEMORY || access.password() == null) {
            return toString();
        }
        String user = access.user() == null ? "" : encode(access.user());
        return text(user + ":" + encode(access.password()) + "@");
    }

    private String text(String userInfo) {
        return access.scheme(kind == Kind.REDIS_CLUSTER ? "-cluster" : "")
                + userInfo
                + nodes.stream().map(HostAndPort::toString).collect(Collectors.joining(","));
    }

    private static String encode(String raw) {
        return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
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
                "store must be " + FORMS + "; " + why + "got \"" + hidePassword(text) + "\"");
    }

    /** The text with whatever follows the first ':' of its user info replaced by {@code ***}. */
    static String hidePassword(String text) {
        if (text == null) {
            return "";
        }
        int scheme = text.indexOf("://");
        int start = scheme < 0 ? 0 : scheme + 3; // a mistyped scheme still hides the password
        int at = text.lastIndexOf('@');
        if (at < start) {
            return text;
        }
        int colon = text.indexOf(':', start);
        return colon < 0 || colon > at ? text : text.substring(0, colon + 1) + "***" + text.substring(at);
    }
}
