package io.upic.liftride.server.store.redis;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Reads what a ride stored in Redis survives ({@code appendonly}, {@code appendfsync}) with
 * {@code CONFIG GET}, logs it in one line at start-up and warns when Redis keeps no append-only file.
 * Where Redis forbids {@code CONFIG} (ElastiCache, or an ACL user without it) it says so instead of
 * failing. Stateless.
 */
final class RedisDurability {
    private static final Logger LOG = Logger.getLogger(RedisDurability.class.getName());

    private RedisDurability() {}

    /** The durability line for {@code /statistics}; logged here (a warning without AOF). */
    static String check(UnifiedJedis redis, boolean cluster, String where) {
        String line;
        Level level = Level.INFO;
        try {
            Map<String, String> config =
                    cluster ? fromAnyNode((RedisClusterClient) redis) : redis.configGet("appendonly", "appendfsync");
            line = describe(config);
            if (!"yes".equals(config.get("appendonly"))) {
                level = Level.WARNING;
            }
        } catch (JedisDataException e) {
            line = "unknown: Redis does not allow CONFIG GET here (" + e.getMessage()
                    + "); check the provider's persistence settings (ElastiCache: AOF or Multi-AZ)";
            level = Level.WARNING;
        }
        LOG.log(level, "LiftRide store " + where + ": " + line);
        return line;
    }

    /** The line for the two settings, warning when a restart of Redis would lose every ride. */
    static String describe(Map<String, String> config) {
        String appendonly = config.getOrDefault("appendonly", "?");
        String fsync = config.getOrDefault("appendfsync", "?");
        if (!"yes".equals(appendonly)) {
            return "appendonly " + appendonly + ", appendfsync " + fsync
                    + ": WARNING, Redis keeps no append-only file, so a restart of Redis loses the rides since its"
                    + " last snapshot (see servlet/redis/redis.conf)";
        }
        String window = switch (fsync) {
            case "always" -> "a ride acknowledged is on disk";
            case "everysec" -> "an OS crash can lose about the last second";
            default -> "an OS crash can lose what the OS had not written yet";
        };
        return "appendonly yes, appendfsync " + fsync + ": rides survive a restart of Redis; " + window;
    }

    private static Map<String, String> fromAnyNode(RedisClusterClient redis) {
        JedisException last = new JedisException("no cluster node known");
        for (ConnectionPool pool : redis.getClusterNodes().values()) {
            try (Connection connection = pool.getResource()) {
                return connection.executeCommand(new CommandObject<>(
                        new CommandArguments(Protocol.Command.CONFIG)
                                .add("GET")
                                .add("appendonly")
                                .add("appendfsync"),
                        BuilderFactory.STRING_MAP));
            } catch (JedisDataException e) {
                throw e;
            } catch (JedisException e) {
                last = e;
            }
        }
        throw last;
    }
}
