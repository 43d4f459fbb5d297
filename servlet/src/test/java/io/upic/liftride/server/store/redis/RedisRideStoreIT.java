package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.RideStoreContract;
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

    /** Redis forgets a key only when its period expires, never for want of room: a short flood shows it. */
    @Override
    protected int floodRides() {
        return 5_000;
    }

    @Override
    protected int ridesPerThread() {
        return 2_500;
    }

    @Test
    void remembersAKeyAtLeastOneKeyTtlAndAtMostTwo() throws InterruptedException {
        long ttlMillis = 3_000;
        RedisRideStore.Settings d = RedisRideStore.Settings.DEFAULTS;
        RedisRideStore.Settings threeSeconds = new RedisRideStore.Settings(
                d.connectTimeout(),
                d.commandTimeout(),
                d.requestTimeout(),
                Duration.ofMillis(ttlMillis),
                d.committers(),
                d.maxBatch(),
                d.maxConnections(),
                d.clockMargin());
        try (RedisRideStore quick = RedisRideStore.standalone("127.0.0.1", redis.port(), threeSeconds)) {
            SkierDay day = new SkierDay(9, 2022, 1, 1);
            LiftRide ride = new LiftRide(5, 100, 0);
            // Redis runs on this machine, so its clock is ours: start just after a period begins
            long period = System.currentTimeMillis() / ttlMillis + 1;
            sleepUntil(period * ttlMillis + 100);
            assertEquals(RideOutcome.STORED, quick.addRide(day, ride, "ttl-key"));
            sleepUntil((period + 1) * ttlMillis + 100); // the next period: found in the previous one
            assertEquals(RideOutcome.REPLAYED, quick.addRide(day, ride, "ttl-key"));
            sleepUntil((period + 2) * ttlMillis + 100); // two periods on: neither period looked up holds it
            assertEquals(RideOutcome.STORED, quick.addRide(day, ride, "ttl-key"));
            assertTrue(
                    Long.parseLong(redis.cli("TTL", "{lr:9:2022}:k:" + (period + 2))) > 0, "a period's hash expires");
        }
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long left = epochMillis - System.currentTimeMillis();
        if (left > 0) {
            Thread.sleep(left);
        }
    }

    @Test
    void saysWhichRedisAnswers() {
        assertEquals(redis.url(), store.description());
    }
}
