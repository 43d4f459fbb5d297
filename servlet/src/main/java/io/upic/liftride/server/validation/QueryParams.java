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
        int[] counts = new int[2]; // resort, season
        for (String pair : rawQuery == null ? new String[0] : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (name == null || value == null) {
                return Result.badRequest("query string must be valid percent-encoding, got " + Values.quote(pair));
            }
            boolean resort = name.equals(RESORT_QUERY.name());
            if (resort || name.equals(SEASON_QUERY.name())) {
                IntRule rule = resort ? RESORT_QUERY : SEASON_QUERY;
                if (++counts[resort ? 0 : 1] > MAX_QUERY_VALUES) {
                    return Result.badRequest(
                            rule.name() + " may be given at most " + MAX_QUERY_VALUES + " times, got more");
                }
                int parsed = rule.parseText(value);
                if (parsed == IntRule.INVALID) {
                    return Result.rejected(rule.rejectText(value));
                }
                (resort ? resorts : seasons).add(parsed);
            }
        }
        if (resorts.isEmpty()) {
            return Result.badRequest("resort is required (" + RESORT_QUERY.describe()
                    + "; repeat it for several resorts: ?resort=1&resort=2)");
        }
        return Result.ok(new SkierVerticalQuery(skierId, resorts, seasons));
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
