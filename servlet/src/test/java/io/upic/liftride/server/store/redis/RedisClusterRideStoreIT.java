package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.RideStoreContract;
import io.upic.liftride.testkit.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The {@link RideStoreContract} on a real 3-master Redis Cluster made by redis-cli --cluster create. */
class RedisClusterRideStoreIT extends RideStoreContract {
    private static RedisCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected RideStore newStore() {
        for (RedisServer node : cluster.nodes()) {
            node.cli("FLUSHALL");
        }
        return StoreSpec.parse(cluster.url()).open();
    }

    @Override
    protected boolean limitsDays() {
        return false;
    }

    /** Redis forgets a key only when its period expires, never for want of room: a short flood shows it. */
    @Override
    protected int floodRides() {
        return 5_000;
    }

    @Override
    protected int ridesPerThread() {
        return 1_000;
    }

    @Test
    void spreadsResortsAndSeasonsOverTheMasters() {
        for (int resort = 1; resort <= 30; resort++) {
            store.addRide(new SkierDay(resort, 2022, 1, 1), new LiftRide(1, 1, 0));
        }
        assertEquals(30, store.ridesStored());
        int mastersWithRides = 0;
        for (RedisServer node : cluster.nodes()) {
            mastersWithRides += Long.parseLong(node.cli("DBSIZE")) > 0 ? 1 : 0;
        }
        assertTrue(mastersWithRides >= 2, "30 resorts' keys should land on more than one master");
        assertTrue(store.description().startsWith("redis-cluster://"), store.description());
    }
}
