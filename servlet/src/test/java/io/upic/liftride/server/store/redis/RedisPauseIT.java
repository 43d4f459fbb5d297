package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.operations.StoreSpec;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A 503 means "not applied": Redis is paused for writes ({@code CLIENT PAUSE ms WRITE}) again and
 * again under load spread over many hash tags, each pause longer than several command timeouts, so
 * batches of later tags wait behind slow earlier
 * ones; afterwards Redis holds exactly the rides answered 201: the 201s plus the requests in flight,
 * and none is in flight when it is read (every sender has stopped and every deadline has passed).
 * Before the fix, batches sent after their requests' 503 added a dozen rides or more here.
 */
@Timeout(60)
class RedisPauseIT {
    private static final int SENDERS = 32;
    private static final LiftRide RIDE = new LiftRide(10, 100, 0);

    @Test
    void storesNoRideWhoseRequestWasAnsweredUnavailableWhileRedisPauses() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RideStore store = StoreSpec.parse(redis.url()).open()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong created = new AtomicLong();
            AtomicLong unavailable = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(SENDERS);
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < SENDERS; t++) {
                int sender = t;
                senders.add(pool.submit(() -> send(store, sender, stop, created, unavailable)));
            }
            try {
                for (int pause = 0; pause < 3; pause++) {
                    Thread.sleep(400);
                    redis.cli("CLIENT", "PAUSE", "4500", "WRITE"); // several 1 s command timeouts in a row
                    Thread.sleep(4_700);
                }
            } finally {
                stop.set(true);
                for (Future<?> f : senders) {
                    f.get(30, TimeUnit.SECONDS);
                }
                pool.shutdown();
            }
            Thread.sleep(2_000); // past every batch's deadline: whatever Redis still runs must be refused
            long stored = store.ridesStored();
            String why = "stored " + stored + ", answered 201 " + created + ", answered 503 " + unavailable;
            System.out.println("RedisPauseIT: " + why);
            assertTrue(unavailable.get() > 0, "the pauses must have been noticed: " + why);
            assertTrue(created.get() > 500, "rides went through between the pauses: " + why);
            assertTrue(stored >= created.get(), "every 201 is stored: " + why);
            // every sender has stopped, so none is in flight: any ride beyond the 201s is a 503 that was applied
            assertTrue(stored <= created.get(), "no ride answered 503 was applied: " + why);
        }
    }

    /** Rides without a key over 40 resorts and seasons (many hash tags per batch) until told to stop. */
    private static Void send(
            RideStore store, int sender, AtomicBoolean stop, AtomicLong created, AtomicLong unavailable) {
        for (int seq = 0; !stop.get(); seq++) {
            SkierDay where = new SkierDay(1 + (seq + sender) % 10, 2020 + (seq / 10) % 4, 1, 1 + sender);
            try {
                if (store.addRide(where, RIDE, null) == RideOutcome.STORED) {
                    created.incrementAndGet();
                }
            } catch (StoreUnavailableException e) {
                unavailable.incrementAndGet();
            }
        }
        return null;
    }
}
