package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.store.UnavailableCause;
import io.upic.liftride.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Redis store against a real redis-server that is killed, frozen and emptied under it. */
@Timeout(120)
class RedisFaultsIT {
    private static final LiftRide RIDE = new LiftRide(10, 100, 0);
    private RedisServer redis;
    private RideStore store;

    @BeforeEach
    void start() {
        redis = RedisServer.start();
        store = StoreSpec.parse(redis.url()).open();
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void answersUnavailableQuicklyWhileRedisIsDownAndRecoversByItself() {
        // appendfsync always: with everysec, Redis answers before its AOF write while an fsync lags (a busy disk)
        store.close();
        redis.close();
        redis = RedisServer.start(FreePorts.next(), List.of("--appendfsync", "always"));
        store = StoreSpec.parse(redis.url()).open();
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 1), RIDE, "before"));
        redis.kill();
        long start = System.nanoTime();
        StoreUnavailableException write = assertThrows(
                StoreUnavailableException.class, () -> store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "down"));
        StoreUnavailableException read =
                assertThrows(StoreUnavailableException.class, () -> store.dayVertical(new SkierDay(1, 2022, 1, 1)));
        assertThrows(StoreUnavailableException.class, store::ridesStored);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis < 3_000, "three refusals took " + millis + " ms");
        assertEquals(UnavailableCause.STORE_UNREACHABLE, write.unavailableCause(), write.getMessage());
        assertEquals(UnavailableCause.STORE_UNREACHABLE, read.unavailableCause(), read.getMessage());

        redis.restart(); // same port and directory: Redis loads its AOF
        assertEquals(OptionalLong.of(100), store.dayVertical(new SkierDay(1, 2022, 1, 1)), "the ride survived SIGKILL");
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "down"));
        assertEquals(RideOutcome.REPLAYED, store.addRide(new SkierDay(1, 2022, 1, 1), RIDE, "before"));
        assertEquals(2, store.ridesStored());
    }

    @Test
    void neverAppliesABatchThatReachesRedisAfterItsRequestGaveUp() throws Exception {
        store.addRide(new SkierDay(1, 2022, 1, 1), RIDE);
        redis.freeze(); // connected, but answers nothing: the batch sits in Redis's socket
        long start = System.nanoTime();
        StoreUnavailableException e = assertThrows(
                StoreUnavailableException.class, () -> store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "late"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(millis < 4_000, "the POST was answered 503 after " + millis + " ms: " + e.getMessage());
        Thread.sleep(1_500); // well past the batch's deadline
        redis.resume(); // now Redis reads the batch: its function must refuse it

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!redis.cli("INFO", "errorstats").contains("errorstat_DEADLINE") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(
                redis.cli("INFO", "errorstats").contains("errorstat_DEADLINE"),
                "Redis ran the late batch and refused it: " + redis.cli("INFO", "errorstats"));
        assertEquals(
                OptionalLong.empty(), store.dayVertical(new SkierDay(1, 2022, 1, 2)), "the late ride was not applied");
        assertEquals(1, store.ridesStored());
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "late"), "a retry stores it");
    }

    @Test
    void refusesABatchThatReachesRedisPastItsDeadlineAsStoreDeadline() {
        RedisRideStore.Settings d = RedisRideStore.Settings.DEFAULTS;
        RedisRideStore.Settings pastDeadline = new RedisRideStore.Settings(
                d.connectTimeout(),
                d.commandTimeout(),
                d.requestTimeout(),
                d.keyTtl(),
                d.committers(),
                d.maxBatch(),
                d.maxConnections(),
                d.commandTimeout().plusSeconds(1)); // each batch's deadline is a second before it is sent
        try (RedisRideStore late = RedisRideStore.standalone("127.0.0.1", redis.port(), pastDeadline)) {
            StoreUnavailableException e = assertThrows(
                    StoreUnavailableException.class, () -> late.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "late"));
            assertEquals(UnavailableCause.STORE_DEADLINE, e.unavailableCause(), e.getMessage());
        }
        assertEquals(OptionalLong.empty(), store.dayVertical(new SkierDay(1, 2022, 1, 2)), "the ride was not applied");
    }

    @Test
    void reloadsItsFunctionWhenRedisLostIt() {
        redis.cli("FUNCTION", "FLUSH");
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 1), RIDE, null));
        assertTrue(redis.cli("FUNCTION", "LIST").contains("liftride"));
    }

    @Test
    void keepsEveryAcknowledgedRideExactlyOnceThroughSigkillOfRedis() throws Exception {
        // appendfsync always: with everysec, Redis answers while it postpones its AOF write behind a lagging
        // fsync (up to 2 s on a busy disk), and a kill then loses those rides (docs/server.md says so)
        store.close();
        redis.close();
        redis = RedisServer.start(FreePorts.next(), List.of("--appendfsync", "always"));
        store = StoreSpec.parse(redis.url()).open();
        int threads = 8;
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicLongArray sentByThread = new AtomicLongArray(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            senders.add(pool.submit(() -> {
                for (int seq = 0; !stop.get(); seq++) {
                    String key = "t" + thread + "-" + seq;
                    SkierDay where = new SkierDay(1, 2022, 1, 1 + (seq % 1000));
                    while (true) { // like the load client: the same key on every retry until a 201
                        try {
                            store.addRide(where, RIDE, key);
                            acknowledged.incrementAndGet();
                            sentByThread.incrementAndGet(thread);
                            break;
                        } catch (StoreUnavailableException e) {
                            refusals.incrementAndGet();
                            sleepQuietly(100);
                        }
                    }
                }
                return null;
            }));
        }
        awaitAtLeast(acknowledged, 600, "rides acknowledged before the kill");
        redis.kill();
        awaitAtLeast(refusals, 1, "the kill noticed");
        redis.restart();
        awaitAtLeast(acknowledged, acknowledged.get() + 600, "rides acknowledged after the restart");
        stop.set(true);
        for (Future<?> sender : senders) {
            sender.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(refusals.get() > 0, "the kill must have been noticed");
        assertTrue(acknowledged.get() > 1_000, "rides were stored before and after: " + acknowledged.get());
        assertEquals(acknowledged.get(), store.ridesStored(), "every acknowledged ride, once; refusals: " + refusals);
        assertEquals(acknowledged.get() * 100, sumOfDayVerticals(1000), "the aggregates agree with the count");
        // each thread rides skiers 1, 2, ... in turn: the day has as many as the busiest thread reached
        long busiest = 0;
        for (int t = 0; t < threads; t++) {
            busiest = Math.max(busiest, sentByThread.get(t));
        }
        assertEquals(Math.min(1000, busiest), store.uniqueSkiers(new ResortDay(1, 2022, 1)));
    }

    @Test
    void fillsTheRideTotalThatARedisWrittenBeforeTheCounterLacks() {
        store.addRide(new SkierDay(12, 2022, 1, 1), RIDE, null);
        store.addRide(new SkierDay(12, 2023, 1, 1), RIDE, null);
        store.addRide(new SkierDay(3, 2022, 1, 1), RIDE, "k");
        store.close();
        redis.cli("DEL", "lr:ridesStored"); // what a Redis written before the running total existed holds
        store = StoreSpec.parse(redis.url()).open();
        assertEquals(3, store.ridesStored(), "the start-up summed the resort-seasons' own counters");
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(3, 2022, 1, 2), RIDE, null));
        assertEquals(4, store.ridesStored());
        store.close();
        store = StoreSpec.parse(redis.url()).open();
        assertEquals(4, store.ridesStored(), "an existing total is left as it is");
    }

    @Test
    void recoversByItselfWhenRedisLosesItsDataUnderIt() {
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(12, 2022, 1, 1), RIDE, "before-flush"));
        assertTrue(store.addSeason(2, 2030));
        redis.cli("FLUSHALL"); // as a new empty Redis, or a restart without AOF, would leave it
        assertEquals("Crystal Mountain", store.resort(2).map(r -> r.name()).orElse("404"), "a seed resort answers");
        assertEquals(10, store.resorts().size(), "every seed resort is back, resort 12 went with the data");
        assertEquals(0, store.ridesStored());
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(12, 2023, 1, 1), RIDE, "before-flush"));
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(3, 2023, 1, 1), RIDE, null));
        assertEquals(2, store.ridesStored(), "the total counts what Redis holds now");
        assertEquals(List.of(2023), store.seasons(12), "the ride registered its resort and season again");
        assertEquals("Resort 12", store.resort(12).map(r -> r.name()).orElse("404"));
        assertEquals("Stevens Pass", store.resort(3).map(r -> r.name()).orElse("404"));
    }

    @Test
    void aFullRedisAnswersUnavailableAndAppliesNothingThenRecovers() {
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 1), RIDE, null));
        redis.cli("CONFIG", "SET", "maxmemory", "1"); // below what Redis uses: every write is refused
        try {
            StoreUnavailableException e = assertThrows(
                    StoreUnavailableException.class, () -> store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "full"));
            assertEquals(UnavailableCause.STORE_REFUSED, e.unavailableCause(), e.getMessage());
            assertTrue(e.getMessage().contains("OOM"), e.getMessage());
            assertEquals(1, store.ridesStored(), "reads still work, and the refused ride is not stored");
        } finally {
            redis.cli("CONFIG", "SET", "maxmemory", "1gb"); // the shipped redis.conf's value
        }
        assertEquals(RideOutcome.STORED, store.addRide(new SkierDay(1, 2022, 1, 2), RIDE, "full"));
        assertEquals(2, store.ridesStored());
    }

    @Test
    void readsDurabilityAtStartAndWarnsWithoutAppendOnlyFile() {
        assertEquals(
                "appendonly yes, appendfsync everysec: rides survive a restart of Redis; an OS crash can lose about"
                        + " the last second",
                store.durability());
        try (RedisServer noAof = RedisServer.start(FreePorts.next(), List.of("--appendonly", "no"));
                RideStore weak = StoreSpec.parse(noAof.url()).open()) {
            assertTrue(weak.durability().startsWith("appendonly no, appendfsync everysec: WARNING"), weak.durability());
        }
    }

    private long sumOfDayVerticals(int skiers) {
        long sum = 0;
        for (int skier = 1; skier <= skiers; skier++) {
            sum += store.dayVertical(new SkierDay(1, 2022, 1, skier)).orElse(0);
        }
        return sum;
    }

    /** Waits until {@code count} reaches {@code least}; fails after 30 s naming {@code what}. */
    private static void awaitAtLeast(AtomicLong count, long least, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (count.get() < least) {
            assertTrue(System.nanoTime() < deadline, what + ": " + count.get() + " of " + least + " in 30 s");
            sleepQuietly(10);
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
