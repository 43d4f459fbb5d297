package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.RideStoreContract;
import io.upic.liftride.server.store.StoreSpec;
import io.upic.liftride.testkit.RedisServer;
import java.time.Duration;
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
    void remembersAKeyAtLeastOneKeyTtlAndAtMostTwo() throws InterruptedException {
        RedisRideStore.Settings d = RedisRideStore.Settings.DEFAULTS;
        RedisRideStore.Settings twoSeconds = new RedisRideStore.Settings(
                d.connectTimeout(),
                d.commandTimeout(),
                d.requestTimeout(),
                Duration.ofSeconds(2),
                d.committers(),
                d.maxBatch(),
                d.maxConnections(),
                d.clockMargin());
        try (RedisRideStore quick = RedisRideStore.standalone("127.0.0.1", redis.port(), twoSeconds)) {
            SkierDay day = new SkierDay(9, 2022, 1, 1);
            LiftRide ride = new LiftRide(5, 100, 0);
            assertEquals(RideOutcome.STORED, quick.addRide(day, ride, "ttl-key"));
            Thread.sleep(2_100); // the key's period has ended: it is found in the previous one
            assertEquals(RideOutcome.REPLAYED, quick.addRide(day, ride, "ttl-key"));
            Thread.sleep(4_100); // two periods later its hash has expired
            assertEquals(RideOutcome.STORED, quick.addRide(day, ride, "ttl-key"));
            assertTrue(
                    Long.parseLong(redis.cli("TTL", "{lr:9:2022}:k:" + (System.currentTimeMillis() / 2000))) > 0,
                    "a period's hash expires");
        }
    }

    @Test
    void saysWhichRedisAnswers() {
        assertEquals(redis.url(), store.description());
    }
}
