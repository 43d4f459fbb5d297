package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * How many entries of one kind a store holds, at most {@code max}; thread-safe and lock-free. A
 * caller reserves a place before it creates an entry, and gives it back when the entry turned out to
 * exist already (another thread made it) or the request failed before creating it.
 */
final class Quota {
    private final AtomicInteger used = new AtomicInteger();
    private final Limit limit;
    private volatile int max;

    Quota(Limit limit, int max) {
        this.limit = limit;
        setMax(max);
    }

    /**
     * Holds at most {@code max} from now on; entries already past a lowered maximum stay, and new
     * ones are refused until the count is below it.
     */
    void setMax(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max < 1: " + max);
        }
        this.max = max;
    }

    /** Reserves one place, or throws {@link LimitReachedException} saying that {@code what} does not fit. */
    void reserve(String what) {
        int most = max;
        if (used.incrementAndGet() > most) {
            used.decrementAndGet();
            throw new LimitReachedException(limit, most, what);
        }
    }

    /**
     * Reserves one place for an entry its caller found missing, true; or false, reserving nothing, when the quota is
     * full but {@code present} says the entry exists now (another request created it since the caller looked: it
     * needs no place); else throws {@link LimitReachedException}. Without the second look, a request that looked
     * before another created the entry and filled the quota was refused a ride to an entry that exists.
     */
    boolean reserveUnless(String what, BooleanSupplier present) {
        try {
            reserve(what);
            return true;
        } catch (LimitReachedException full) {
            if (present.getAsBoolean()) {
                return false;
            }
            throw full;
        }
    }

    void release() {
        used.decrementAndGet();
    }

    int used() {
        return used.get();
    }
}
