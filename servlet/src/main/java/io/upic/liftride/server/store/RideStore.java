package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * Where lift rides go and what the GETs read; implementations must be safe for concurrent use by
 * every request thread. Any method may throw {@link StoreUnavailableException} (the API's 503); a method
 * that would create an entry past one of the {@link #limits()} throws {@link LimitReachedException}
 * (the API's 409), having changed nothing. Arguments are already validated.
 */
public interface RideStore extends AutoCloseable {
    /** The ServletContext attribute under which the web application keeps its store. */
    String ATTRIBUTE = RideStore.class.getName();

    /**
     * Stores one ride atomically (every aggregate or none). An {@code idempotencyKey} (null: none) already
     * applied for this skier day within 24 hours is not applied again ({@link RideOutcome#REPLAYED} or
     * {@link RideOutcome#KEY_REUSED}); the check and the ride are one step. A {@code client} (null: the
     * server itself) may create at most its {@link Limits#clientBudget} of new entries; rides to existing
     * entries are never refused.
     */
    RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey, String client);

    /** {@link #addRide(SkierDay, LiftRide, String, String)} counted against the limits only, no client's budget. */
    default RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey) {
        return addRide(where, ride, idempotencyKey, null);
    }

    /**
     * {@link #addRide(SkierDay, LiftRide, String, String)} without waiting: the future completes on a
     * store's own thread, so what is chained on it must be quick and never block. The default completes
     * at once.
     */
    default CompletableFuture<RideOutcome> addRideAsync(
            SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        return CompletableFuture.completedFuture(addRide(where, ride, idempotencyKey, client));
    }

    /** {@link #addRideAsync(SkierDay, LiftRide, String, String)} without a client. */
    default CompletableFuture<RideOutcome> addRideAsync(SkierDay where, LiftRide ride, String idempotencyKey) {
        return addRideAsync(where, ride, idempotencyKey, null);
    }

    /**
     * What a retry's key must match, packed: day (9 bits), skier (17), liftID (6), time (9), waitTime + 1 (5);
     * never 0. Resort and season are not in it: every store scopes its keys to the ride's skier day.
     */
    static long fingerprint(SkierDay where, LiftRide ride) {
        return ((long) where.dayId() << 37)
                | ((long) where.skierId() << 20)
                | ((long) ride.liftId() << 14)
                | ((long) ride.time() << 5)
                | (ride.waitTime() + 1);
    }

    /** The outcome of {@code outcome} once complete; its failure thrown as is (a 503 or a 409). */
    static RideOutcome await(CompletableFuture<RideOutcome> outcome) {
        try {
            return outcome.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : StoreUnavailableException.of(e.getCause());
        }
    }

    /** Stores one ride without an idempotency key. */
    default void addRide(SkierDay where, LiftRide ride) {
        addRide(where, ride, null);
    }

    /** The skier's vertical for that resort, season and day; empty when the skier has no ride there. */
    OptionalLong dayVertical(SkierDay where);

    /**
     * The skier's vertical per season, summed over the query's resorts, seasons ascending; only
     * seasons with rides (of those asked for, or all when none are), so empty means no data.
     */
    List<SeasonVertical> seasonVerticals(SkierVerticalQuery query);

    /** The known resorts ascending by id, at most {@link Limit#RESORTS} of them. */
    List<Resort> resorts();

    Optional<Resort> resort(int resortId);

    /** The resort's seasons ascending; empty when the resort is unknown or has none. */
    List<Integer> seasons(int resortId);

    /** Adds a season to an existing resort (idempotent); false when the resort does not exist. */
    boolean addSeason(int resortId, int season, String client);

    /** {@link #addSeason(int, int, String)} without a client. */
    default boolean addSeason(int resortId, int season) {
        return addSeason(resortId, season, null);
    }

    /** How many different skiers rode at the resort that season and day; 0 when none did. */
    int uniqueSkiers(ResortDay day);

    /** Rides stored by every server sharing this store; the load client reconciles its 201s against it. */
    long ridesStored();

    /** The limits this store enforces now. */
    Limits limits();

    /** Enforces {@code limits} from now on, keeping every ride; entries past a lowered limit stay. */
    void setLimits(Limits limits);

    /** Which store answers, for {@code /statistics}: {@code memory}, or the Redis address. */
    String description();

    /** What a stored ride survives, for {@code /statistics} and the start-up log. */
    default String durability() {
        return "none: rides live in this JVM's memory and are lost when it stops";
    }

    /**
     * Cheap readiness check (one round trip at most).
     *
     * @throws StoreUnavailableException if the backend does not answer
     */
    default void ping() {}

    /** Rides waiting to be written (a group-commit queue); 0 for a store that writes in the request. */
    default int queuedRides() {
        return 0;
    }

    /** Rides taken and perhaps not yet answered, which a drain waits for; 0 for a synchronous store. */
    default int pendingRides() {
        return 0;
    }

    /** How many rides may wait at most before a ride is refused with 503; {@link Integer#MAX_VALUE} if unbounded. */
    default int queueCapacity() {
        return Integer.MAX_VALUE;
    }

    /**
     * From now on reports each round trip to the backend (its nanoseconds, answered or failed) and each batch of
     * rides written as one atomic call (its size), for {@code /metrics}; both must be cheap and never throw.
     */
    default void observe(LongConsumer commandNanos, IntConsumer batchRides) {}

    /** Releases connections and threads; the store is unusable afterwards. Never throws. */
    @Override
    default void close() {}
}
