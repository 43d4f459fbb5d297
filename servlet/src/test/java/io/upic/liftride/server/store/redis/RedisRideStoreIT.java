package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.RideStoreContract;
import io.upic.liftride.server.store.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The {@link RideStoreContract} on one real redis-server (AOF, the recommended redis.conf). */
class RedisRideStoreIT extends RideStoreContract {
    private static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Override
    protected RideStore newStore() {
        redis.cli("FLUSHALL");
        return StoreSpec.parse(redis.url()).open();
    }

    @Override
    protected int ridesPerThread() {
        return 2_500;
    }

    @Test
    void saysWhichRedisAnswers() {
        assertEquals(redis.url(), store.description());
    }
}
