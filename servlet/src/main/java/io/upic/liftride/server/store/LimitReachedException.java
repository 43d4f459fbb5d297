package io.upic.liftride.server.store;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.model.SkierDay;

/**
 * The store holds as many entries of one kind as its {@link Limit} allows, and the request would add
 * one more; nothing was applied. The API answers 409 with a JSON message naming the limit, and every
 * request that adds nothing new (a ride to an existing resort, season, day and skier) keeps working.
 */
public final class LimitReachedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Limit limit;

    public LimitReachedException(Limit limit, long max, String what) {
        this(
                limit,
                "the server holds at most " + max + " " + limit.noun() + " (" + names(limit) + "); " + what
                        + " would be one more, nothing was stored");
    }

    private LimitReachedException(Limit limit, String message) {
        super(message);
        this.limit = limit;
    }

    /** {@code client} used its budget of {@code limit}'s entries; {@code what} would be one more. */
    public static LimitReachedException perClient(Limit limit, Limits limits, String client, String what) {
        Limit share = Limit.CLIENT_SHARE_PERCENT;
        return new LimitReachedException(
                limit,
                "the per-client budget allows client " + client + " to create at most " + limits.clientBudget(limit)
                        + " of the server's " + limits.get(limit) + " " + limit.noun() + " (" + limits.get(share)
                        + "%: " + names(share) + "); " + what + " would be one more, nothing was stored");
    }

    private static String names(Limit limit) {
        return "--" + limit.flag() + ", " + limit.property() + ", " + limit.env();
    }

    /** The entry of {@code limit}'s kind that a ride to {@code where} creates, as messages name it. */
    public static String entry(Limit limit, SkierDay where) {
        String season = "season " + where.seasonId() + " at resort " + where.resortId();
        return switch (limit) {
            case RESORTS -> "resort " + where.resortId();
            case SEASONS_PER_RESORT -> season;
            case RESORT_DAYS -> "day " + where.dayId() + " of " + season;
            case SKIER_DAYS -> "skier " + where.skierId() + " on day " + where.dayId() + " of " + season;
            default -> throw new IllegalArgumentException("limit must count entries a ride creates, got " + limit);
        };
    }

    /** Which limit was reached. */
    public Limit limit() {
        return limit;
    }
}
