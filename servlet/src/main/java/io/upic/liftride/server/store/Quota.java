package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * How many entries of one kind a store holds (at most its {@link Limit}) and how many each client created (at
 * most {@link Limits#clientBudget}); thread-safe and lock-free. Reserve before creating, give back when the entry
 * existed or the request failed; a null client counts against the limit only. Past {@value #MAX_CLIENTS}
 * clients, further ones share the budget {@value #OTHERS}, so many addresses cannot exhaust the limit.
 */
final class Quota {
    /** Clients counted one by one, at most. */
    static final int MAX_CLIENTS = 10_000;

    /** The client name under which clients past {@link #MAX_CLIENTS} share one budget. */
    static final String OTHERS = "(other clients)";

    private final AtomicInteger used = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> byClient = new ConcurrentHashMap<>();
    private final Limit limit;
    private volatile Limits limits;

    Quota(Limit limit, Limits limits) {
        this.limit = limit;
        this.limits = limits;
    }

    /** Enforces {@code limits} from now on; entries past a lowered limit stay. */
    void setLimits(Limits limits) {
        this.limits = limits;
    }

    /** Reserves a place for {@code client} (null: none), or throws {@link LimitReachedException}. */
    void reserve(String what, String client) {
        Limits now = limits;
        int most = now.count(limit);
        if (used.incrementAndGet() > most) {
            used.decrementAndGet();
            throw new LimitReachedException(limit, most, what);
        }
        AtomicInteger mine = client == null ? null : counter(client);
        if (mine != null && mine.incrementAndGet() > now.clientBudget(limit)) {
            mine.decrementAndGet();
            used.decrementAndGet();
            throw LimitReachedException.perClient(limit, now, clientName(client), what);
        }
    }

    /**
     * Reserves a place and returns true; or returns false, reserving nothing, when the quota is full but {@code
     * present} says another request created the entry meanwhile; else throws {@link LimitReachedException}.
     */
    boolean reserveUnless(String what, String client, BooleanSupplier present) {
        try {
            reserve(what, client);
            return true;
        } catch (LimitReachedException full) {
            if (present.getAsBoolean()) {
                return false;
            }
            throw full;
        }
    }

    /** Gives back a place {@code client} reserved. */
    void release(String client) {
        used.decrementAndGet();
        if (client != null) {
            counter(client).decrementAndGet();
        }
    }

    int used() {
        return used.get();
    }

    private AtomicInteger counter(String client) {
        AtomicInteger counter = byClient.get(client);
        if (counter != null) {
            return counter;
        }
        // the bound is checked before adding, so racing new clients may pass it by a few
        return byClient.computeIfAbsent(byClient.size() < MAX_CLIENTS ? client : OTHERS, c -> new AtomicInteger());
    }

    private String clientName(String client) {
        return byClient.containsKey(client) ? client : OTHERS;
    }
}
