package io.upic.liftride.server.validation;

import static io.upic.liftride.server.validation.Rules.MAX_QUERY_VALUES;
import static io.upic.liftride.server.validation.Rules.RESORT_QUERY;
import static io.upic.liftride.server.validation.Rules.SEASON_QUERY;

import io.upic.liftride.server.model.SkierVerticalQuery;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Validates the raw (still percent-encoded) query string of {@code /skiers/{skierID}/vertical}:
 * {@code resort} required and repeatable, {@code season} optional and repeatable (each at most
 * {@link Rules#MAX_QUERY_VALUES} times), other names ignored. Parsing it here rather than through the
 * container keeps it a pure, testable function and lets malformed percent-encoding be a 400 instead of
 * a silently dropped parameter. Stateless and thread-safe.
 */
public final class QueryParams {
    private QueryParams() {}

    public static Result<SkierVerticalQuery> skierVertical(int skierId, String rawQuery) {
        Set<Integer> resorts = new LinkedHashSet<>();
        Set<Integer> seasons = new LinkedHashSet<>();
        int resortCount = 0;
        int seasonCount = 0;
        if (rawQuery != null && !rawQuery.isEmpty()) {
            int start = 0;
            while (start <= rawQuery.length()) {
                int amp = rawQuery.indexOf('&', start);
                int end = amp < 0 ? rawQuery.length() : amp;
                if (end > start) {
                    int eq = rawQuery.indexOf('=', start);
                    boolean hasValue = eq >= 0 && eq < end;
                    String name = decode(rawQuery.substring(start, hasValue ? eq : end));
                    String value = hasValue ? decode(rawQuery.substring(eq + 1, end)) : "";
                    if (name == null || value == null) {
                        return Result.badRequest("query string must be valid percent-encoding, got "
                                + Values.quote(rawQuery.substring(start, end)));
                    }
                    if (name.equals(RESORT_QUERY.name())) {
                        if (++resortCount > MAX_QUERY_VALUES) {
                            return tooMany(RESORT_QUERY.name());
                        }
                        int resort = RESORT_QUERY.parseText(value);
                        if (resort == IntRule.INVALID) {
                            return Result.rejected(RESORT_QUERY.rejectText(value));
                        }
                        resorts.add(resort);
                    } else if (name.equals(SEASON_QUERY.name())) {
                        if (++seasonCount > MAX_QUERY_VALUES) {
                            return tooMany(SEASON_QUERY.name());
                        }
                        int season = SEASON_QUERY.parseText(value);
                        if (season == IntRule.INVALID) {
                            return Result.rejected(SEASON_QUERY.rejectText(value));
                        }
                        seasons.add(season);
                    }
                }
                if (amp < 0) {
                    break;
                }
                start = amp + 1;
            }
        }
        if (resorts.isEmpty()) {
            return Result.badRequest("resort is required (" + RESORT_QUERY.describe()
                    + "; repeat it for several resorts: ?resort=1&resort=2)");
        }
        return Result.ok(new SkierVerticalQuery(skierId, resorts, seasons));
    }

    private static Result<SkierVerticalQuery> tooMany(String name) {
        return Result.badRequest(name + " may be given at most " + MAX_QUERY_VALUES + " times, got more");
    }

    /** Form-decoded text, or null when the percent-encoding is malformed. */
    private static String decode(String text) {
        if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
            return text;
        }
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
