package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.Trees;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.testkit.RedisServer;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store on a Redis Cluster as ElastiCache's cluster mode with in-transit encryption gives it: three
 * masters that take clients on TLS only (a private CA's certificate) and talk to each other over TLS, and on
 * every node the same ACL user allowed the store's commands plus the two a cluster client needs to find the
 * shards ({@code CLUSTER SLOTS}, {@code CLUSTER SHARDS}), not {@code CONFIG}.
 */
@Timeout(90)
class RedisClusterSecuredIT {
    /** What a cluster client sends beside the store's commands, as docs/server.md's access string says. */
    static final String CLUSTER_COMMANDS = "+cluster|slots +cluster|shards";

    private static Path dir;
    private static RedisCluster cluster;

    @BeforeAll
    static void start() {
        dir = Trees.temp("liftride-tls-cluster-");
        TestCertificates tls = TestCertificates.make(dir);
        tls.trustInThisJvm();
        cluster = RedisCluster.startTls(3, tls);
        for (RedisServer node : cluster.nodes()) {
            assertEquals("OK", node.cli(RedisSecuredIT.storeUser(CLUSTER_COMMANDS)));
        }
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (dir != null) {
            Trees.delete(dir);
        }
    }

    @Test
    void storesOnEveryMasterOverTlsAsAnAclUserLimitedToTheStoresAndTheClustersCommands() {
        String url = cluster.url("liftride:" + RedisSecuredIT.PASSWORD + "@");
        try (RideStore store = StoreSpec.parse(url, null).open()) {
            long before = store.ridesStored();
            int resorts = 12; // twelve resort-seasons hash to slots on all three masters
            for (int resort = 1; resort <= resorts; resort++) {
                SkierDay where = new SkierDay(resort, 2024, 1, 7);
                assertEquals(RideOutcome.STORED, store.addRide(where, new LiftRide(3, 60, 0), "tls-c-" + resort));
                assertEquals(RideOutcome.REPLAYED, store.addRide(where, new LiftRide(3, 60, 0), "tls-c-" + resort));
                assertEquals(OptionalLong.of(30), store.dayVertical(where));
            }
            assertEquals(before + resorts, store.ridesStored(), "the counters of every master added up");
            for (RedisServer node : cluster.nodes()) {
                long keys = Long.parseLong(node.cli("DBSIZE"));
                assertTrue(keys > 0, "rides on every master: node " + node.port() + " holds " + keys + " keys");
            }
            assertTrue(store.description().startsWith("rediss-cluster://liftride@127.0.0.1:"), store.description());
            assertFalse(store.description().contains(RedisSecuredIT.PASSWORD), store.description());
            assertTrue(store.durability().startsWith("unknown: Redis does not allow CONFIG GET"), store.durability());
        }
    }

    @Test
    void aWrongPasswordStopsTheStartInOneLineWithoutThePassword() {
        String url = cluster.url("liftride:not-" + RedisSecuredIT.PASSWORD + "@");
        RuntimeException e = assertThrows(
                RuntimeException.class, () -> StoreSpec.parse(url, null).open());
        String message = e.getMessage();
        assertFalse(message.contains("\n"), message);
        assertTrue(message.contains("refused the user or password"), message);
        assertFalse(message.contains(RedisSecuredIT.PASSWORD), message);
    }
}
