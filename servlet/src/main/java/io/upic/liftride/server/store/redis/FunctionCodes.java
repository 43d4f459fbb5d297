package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.store.LimitReachedException;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.store.UnavailableCause;
import java.util.ArrayList;
import java.util.List;

/**
 * What the {@code liftride} functions ({@code liftride.lua}) take as limits and answer per ride: 1
 * stored, 0 replayed, -1 key reused, -2 .. -5 a new entry past {@link #LIMITS} in that order, -6 .. -9
 * past its client's budget of them ({@link Limits#clientBudget}).
 * Stateless.
 */
final class FunctionCodes {
    /** The limits the functions enforce, in the order of their arguments and codes. */
    static final List<Limit> LIMITS =
            List.of(Limit.RESORTS, Limit.SEASONS_PER_RESORT, Limit.RESORT_DAYS, Limit.SKIER_DAYS);

    /** Clients counted one by one in each {@code lr:clients:*} hash, at most; the rest share one field. */
    static final int MAX_CLIENTS = 10_000;

    private FunctionCodes() {}

    /** {@link #LIMITS}' values in {@code limits}, as the functions' arguments. */
    static List<String> arguments(Limits limits) {
        return LIMITS.stream().map(limit -> Long.toString(limits.get(limit))).toList();
    }

    /** Each client's budget of {@link #LIMITS} in {@code limits}, then the clients counted at most. */
    static List<String> budgets(Limits limits) {
        List<String> budgets = new ArrayList<>(LIMITS.stream()
                .map(limit -> Long.toString(limits.clientBudget(limit)))
                .toList());
        budgets.add(Integer.toString(MAX_CLIENTS));
        return budgets;
    }

    /** One outcome per ride of {@code reply}; a ride refused by a limit has its future failed here. */
    static List<RideOutcome> outcomes(Object reply, List<PendingRide> rides, Limits limits) {
        if (!(reply instanceof List<?> codes) || codes.size() != rides.size()) {
            throw new StoreUnavailableException(
                    UnavailableCause.STORE_OTHER,
                    "Redis answered the batch of " + rides.size() + " rides with " + reply);
        }
        List<RideOutcome> outcomes = new ArrayList<>(rides.size());
        for (int i = 0; i < codes.size(); i++) {
            long code = (Long) codes.get(i);
            if (code < -1) {
                PendingRide ride = rides.get(i);
                ride.outcome.completeExceptionally(refusal(code, ride.where(), limits, ride.client));
            }
            outcomes.add(code == 1 ? RideOutcome.STORED : code == 0 ? RideOutcome.REPLAYED : RideOutcome.KEY_REUSED);
        }
        return outcomes;
    }

    /** Throws the refusal {@code code} stands for if it is one (below -1); {@code where} names the entry. */
    static void check(long code, SkierDay where, Limits limits, String client) {
        if (code < -1) {
            throw refusal(code, where, limits, client);
        }
    }

    private static LimitReachedException refusal(long code, SkierDay where, Limits limits, String client) {
        int index = (int) (-2 - code);
        Limit limit = LIMITS.get(index % LIMITS.size());
        String what = LimitReachedException.entry(limit, where);
        return index < LIMITS.size()
                ? new LimitReachedException(limit, limits.get(limit), what)
                : LimitReachedException.perClient(limit, limits, client, what);
    }
}
