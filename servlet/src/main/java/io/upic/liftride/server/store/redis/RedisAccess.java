package io.upic.liftride.server.store.redis;

import javax.net.ssl.SSLParameters;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;

/**
 * How the store reaches Redis: TLS or not, and the ACL user and password (null: none, Redis's
 * {@code default} user). With TLS the server's certificate must chain to the JVM's trust store
 * (the standard {@code -Djavax.net.ssl.trustStore=...} for a private CA) and name the host the store
 * connects to. Immutable; {@link #toString()} never shows the password.
 */
public record RedisAccess(boolean tls, String user, String password) {
    /** Plain TCP, no AUTH: Redis's defaults. */
    public static final RedisAccess PLAIN = new RedisAccess(false, null, null);

    public RedisAccess {
        if (user != null && user.isEmpty()) {
            user = null;
        }
        if (user != null && password == null) {
            throw new IllegalArgumentException("Redis user " + user + " has no password: give USER:PASSWORD@ or set "
                    + "the environment variable LIFTRIDE_REDIS_PASSWORD");
        }
    }

    /** The URL scheme: {@code redis} or {@code rediss}, with {@code suffix} (e.g. "-cluster"). */
    public String scheme(String suffix) {
        return (tls ? "rediss" : "redis") + suffix + "://";
    }

    /** {@code USER@} or {@code :***@} or nothing, as the user is shown; never the password. */
    public String shownUserInfo() {
        if (user != null) {
            return user + "@";
        }
        return password != null ? ":***@" : "";
    }

    /** Puts TLS (with the host name checked against the certificate) and credentials on {@code config}. */
    DefaultJedisClientConfig.Builder applyTo(DefaultJedisClientConfig.Builder config) {
        if (tls) {
            SSLParameters parameters = new SSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // Jedis checks no host name by itself
            config.ssl(true).sslParameters(parameters);
        }
        if (password != null) {
            config.user(user).password(password);
        }
        // CLIENT SETINFO is one more command for an ACL user to be allowed; the store names itself anyway
        return config.clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
    }

    @Override
    public String toString() {
        return "RedisAccess[tls=" + tls + ", user=" + user + ", password=" + (password == null ? "none" : "***") + "]";
    }
}
