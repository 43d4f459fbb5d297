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

/**
 * Where lift rides go and what the GETs read; implementations must be safe for concurrent use by
 * every request thread. Any method may throw {@link StoreUnavailableException} when the store does
 * not answer in time; the API turns it into a 503 with {@code Retry-After}. Every store enforces its
 * {@link #limits()}: a method that would create an entry past one throws {@link LimitReachedException}
 * (from {@code addRideAsync}: fails its future with it), having changed nothing; the API turns it into
 * a 409. Arguments are already
 * validated (see {@code validation.Rules}); an implementation may still refuse values outside them
 * with {@link IllegalArgumentException}.
 *
 * <p>Which resorts exist: a store may start with some (the in-memory one seeds 1..10); a resort
 * that receives a ride is registered then, with the ride's season. Seasons are added by rides and by
 * {@link #addSeason}, which needs an existing resort.
 */
public interface RideStore extends AutoCloseable {
    /** The ServletContext attribute under which the web application keeps its store. */
    String ATTRIBUTE = RideStore.class.getName();

    /**
     * Stores one ride atomically (every aggregate or none): the skier's day and season verticals grow
     * by liftID x 10 and {@link #ridesStored()} by one. With an {@code idempotencyKey} (null: none), a
     * key already applied for this skier day (resort, season, day and skier) within 24 hours is not applied
     * again:
     * {@link RideOutcome#REPLAYED} if it came with the same ride, {@link RideOutcome#KEY_REUSED} if
     * not. The check and the ride are one step, so two concurrent requests with one key store it once.
     * A {@code client} (the sender's address; null: the server's own call) may create at most its {@link
     * Limits#clientBudget} of new resorts, seasons per resort, resort days and skier days; past it the ride
     * is refused with a {@link LimitReachedException} naming the per-client budget, checked in the same
     * atomic step that would create the entry. Rides to existing entries are never refused.
     */
    RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey, String client);

    /** {@link #addRide(SkierDay, LiftRide, String, String)} counted against the limits only, no client's budget. */
    default RideOutcome addRide(SkierDay where, LiftRide ride, String idempotencyKey) {
        return addRide(where, ride, idempotencyKey, null);
    }

    /**
     * {@link #addRide(SkierDay, LiftRide, String, String)} for a caller that need not wait: the future completes
     * with the outcome once the ride is stored (or fails with {@link StoreUnavailableException}: not
     * applied), on a store's own thread, so what is chained on it must be quick and never block. A
     * store that writes in the caller's thread (the default) returns a completed future; any store may
     * throw at once what {@code addRide} throws. Every future completes within the store's own timeouts.
     */
    default CompletableFuture<RideOutcome> addRideAsync(
            SkierDay where, LiftRide ride, String idempotencyKey, String client) {
        return CompletableFuture.completedFuture(addRide(where, ride, idempotencyKey, client));
    }

    /** {@link #addRideAsync(SkierDay, LiftRide, String, String)} without a client. */
    default CompletableFuture<RideOutcome> addRideAsync(SkierDay where, LiftRide ride, String idempotencyKey) {
        return addRideAsync(where, ride, idempotencyKey, null);
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

    /**
     * The known resorts ascending by id, at most {@link Limit#RESORTS} of them (a store holding more,
     * filled before the limit was lowered, lists that many).
     */
    List<Resort> resorts();

    Optional<Resort> resort(int resortId);

    /** The resort's seasons ascending; empty when the resort is unknown or has none. */
    List<Integer> seasons(int resortId);

    /**
     * Adds a season to an existing resort (again is fine); false when the resort does not exist. A new
     * season counts against {@code client}'s budget as in {@link #addRide(SkierDay, LiftRide, String, String)}.
     */
    boolean addSeason(int resortId, int season, String client);

    /** {@link #addSeason(int, int, String)} without a client. */
    default boolean addSeason(int resortId, int season) {
        return addSeason(resortId, season, null);
    }

    /** How many different skiers rode at the resort that season and day; 0 when none did. */
    int uniqueSkiers(ResortDay day);

    /**
     * Rides stored, by every server sharing this store (since it was created: a Redis store counts what
     * Redis holds); the load client reconciles its 201s against it.
     */
    long ridesStored();

    /** The limits this store enforces now. */
    Limits limits();

    /**
     * Enforces {@code limits} from now on, without a restart and keeping every ride: an operator raising
     * a limit that a client used up. Entries already past a lowered limit stay.
     */
    void setLimits(Limits limits);

    /** Which store answers, for {@code /statistics}: {@code memory}, or the Redis address. */
    String description();

    /**
     * What a stored ride survives, for {@code /statistics} and the start-up log: e.g. Redis's
     * {@code appendonly}/{@code appendfsync}, as far as the store could read them.
     */
    default String durability() {
        return "none: rides live in this JVM's memory and are lost when it stops";
    }

    /**
     * Answers within the store's own timeouts if the store can take a ride now (for {@code
     * /health/ready}); cheap: one round trip at most, no scan.
     *
     * @throws StoreUnavailableException if the backend does not answer
     */
    default void ping() {}

    /** Rides waiting to be written (a group-commit queue); 0 for a store that writes in the request. */
    default int queuedRides() {
        return 0;
    }

    /**
     * Rides taken and perhaps not yet answered (queued, or in a batch under way): what a drain waits for
     * besides busy request threads; 0 for a store that writes in the request.
     */
    default int pendingRides() {
        return 0;
    }

    /** How many rides may wait at most before a ride is refused with 503; {@link Integer#MAX_VALUE} if unbounded. */
    default int queueCapacity() {
        return Integer.MAX_VALUE;
    }

    /** Reports the store's commands and batches to {@code observer} from now on (for {@code /metrics}). */
    default void observe(StoreObserver observer) {}

    /** Releases connections and threads; the store is unusable afterwards. Never throws. */
    @Override
    default void close() {}
}
