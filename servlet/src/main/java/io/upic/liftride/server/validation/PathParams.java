package io.upic.liftride.server.validation;

import static io.upic.liftride.server.validation.Rules.DAY_ID;
import static io.upic.liftride.server.validation.Rules.RESORT_DAY_SEASON_ID;
import static io.upic.liftride.server.validation.Rules.RESORT_ID;
import static io.upic.liftride.server.validation.Rules.SEASON_ID;
import static io.upic.liftride.server.validation.Rules.SKIER_ID;

import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;

/**
 * Validates the parameters of a {@link RouteMatch} against {@link Rules}, in template order: the
 * first parameter that breaks its rule is the one the 400 names. Stateless and thread-safe.
 */
public final class PathParams {
    private PathParams() {}

    /** {@code /skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}}. */
    public static Result<SkierDay> skierDay(RouteMatch match) {
        Result<int[]> ids = parse(match, Route.SKIER_DAY, RESORT_ID, SEASON_ID, DAY_ID, SKIER_ID);
        return ids.isOk()
                ? Result.ok(new SkierDay(ids.value()[0], ids.value()[1], ids.value()[2], ids.value()[3]))
                : Result.rejected(ids.rejection());
    }

    /** The skierID of {@code /skiers/{skierID}/vertical}. */
    public static Result<Integer> skierId(RouteMatch match) {
        requireRoute(match, Route.SKIER_VERTICAL);
        return SKIER_ID.parse(match.parameter(0));
    }

    /** The resortID of {@code /resorts/{resortID}/seasons}. */
    public static Result<Integer> resortId(RouteMatch match) {
        requireRoute(match, Route.RESORT_SEASONS);
        return RESORT_ID.parse(match.parameter(0));
    }

    /** {@code /resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers}. */
    public static Result<ResortDay> resortDay(RouteMatch match) {
        Result<int[]> ids = parse(match, Route.RESORT_DAY_SKIERS, RESORT_ID, RESORT_DAY_SEASON_ID, DAY_ID);
        return ids.isOk()
                ? Result.ok(new ResortDay(ids.value()[0], ids.value()[1], ids.value()[2]))
                : Result.rejected(ids.rejection());
    }

    private static Result<int[]> parse(RouteMatch match, Route route, IntRule... rules) {
        requireRoute(match, route);
        int[] values = new int[rules.length];
        for (int i = 0; i < rules.length; i++) {
            values[i] = rules[i].parseText(match.parameter(i));
            if (values[i] == IntRule.INVALID) {
                return Result.rejected(rules[i].rejectText(match.parameter(i)));
            }
        }
        return Result.ok(values);
    }

    private static void requireRoute(RouteMatch match, Route expected) {
        if (match.route() != expected) {
            throw new IllegalArgumentException("route must be " + expected + ", got " + match.route());
        }
    }
}
