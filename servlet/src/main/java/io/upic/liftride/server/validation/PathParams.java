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
        requireRoute(match, Route.SKIER_DAY);
        String resortText = match.parameter(0);
        int resort = RESORT_ID.parseText(resortText);
        if (resort == IntRule.INVALID) {
            return Result.rejected(RESORT_ID.rejectText(resortText));
        }
        String seasonText = match.parameter(1);
        int season = SEASON_ID.parseText(seasonText);
        if (season == IntRule.INVALID) {
            return Result.rejected(SEASON_ID.rejectText(seasonText));
        }
        String dayText = match.parameter(2);
        int day = DAY_ID.parseText(dayText);
        if (day == IntRule.INVALID) {
            return Result.rejected(DAY_ID.rejectText(dayText));
        }
        String skierText = match.parameter(3);
        int skier = SKIER_ID.parseText(skierText);
        if (skier == IntRule.INVALID) {
            return Result.rejected(SKIER_ID.rejectText(skierText));
        }
        return Result.ok(new SkierDay(resort, season, day, skier));
    }

    /** The skierID of {@code /skiers/{skierID}/vertical}. */
    public static Result<Integer> skierId(RouteMatch match) {
        requireRoute(match, Route.SKIER_VERTICAL);
        return parse(SKIER_ID, match.parameter(0));
    }

    /** The resortID of {@code /resorts/{resortID}/seasons}. */
    public static Result<Integer> resortId(RouteMatch match) {
        requireRoute(match, Route.RESORT_SEASONS);
        return parse(RESORT_ID, match.parameter(0));
    }

    /** {@code /resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers}. */
    public static Result<ResortDay> resortDay(RouteMatch match) {
        requireRoute(match, Route.RESORT_DAY_SKIERS);
        String resortText = match.parameter(0);
        int resort = RESORT_ID.parseText(resortText);
        if (resort == IntRule.INVALID) {
            return Result.rejected(RESORT_ID.rejectText(resortText));
        }
        String seasonText = match.parameter(1);
        int season = RESORT_DAY_SEASON_ID.parseText(seasonText);
        if (season == IntRule.INVALID) {
            return Result.rejected(RESORT_DAY_SEASON_ID.rejectText(seasonText));
        }
        String dayText = match.parameter(2);
        int day = DAY_ID.parseText(dayText);
        if (day == IntRule.INVALID) {
            return Result.rejected(DAY_ID.rejectText(dayText));
        }
        return Result.ok(new ResortDay(resort, season, day));
    }

    private static Result<Integer> parse(IntRule rule, String text) {
        int value = rule.parseText(text);
        return value == IntRule.INVALID ? Result.rejected(rule.rejectText(text)) : Result.ok(value);
    }

    private static void requireRoute(RouteMatch match, Route expected) {
        if (match.route() != expected) {
            throw new IllegalArgumentException("route must be " + expected + ", got " + match.route());
        }
    }
}
