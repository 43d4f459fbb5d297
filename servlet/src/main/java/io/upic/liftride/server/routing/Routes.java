package io.upic.liftride.server.routing;

import java.util.Arrays;
import java.util.List;

/**
 * Finds which {@link Route} a path has the shape of: the same number of segments and the same
 * literals. Parameter values are not checked here (that is a 400 for {@code validation.PathParams},
 * not a 404). Stateless and thread-safe; no regular expressions.
 */
public final class Routes {
    private static final Route[] ROUTES = Route.values();
    private static final int MAX_SEGMENTS =
            Arrays.stream(ROUTES).mapToInt(Route::segmentCount).max().orElse(0);

    private Routes() {}

    /**
     * The route whose shape {@code path} has, or null (a 404). {@code path} is relative to the context
     * path and decoded, e.g. {@code /skiers/1/seasons/2022/days/1/skiers/7}. A trailing slash is an
     * extra, empty segment, so {@code /resorts/} matches nothing; an empty parameter segment
     * still matches and is refused by {@code PathParams} with a message naming the parameter.
     */
    public static RouteMatch match(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        String[] segments = new String[MAX_SEGMENTS];
        int count = 0;
        int start = 1;
        while (true) {
            if (count == MAX_SEGMENTS) {
                return null; // longer than every route
            }
            int slash = path.indexOf('/', start);
            segments[count++] = slash < 0 ? path.substring(start) : path.substring(start, slash);
            if (slash < 0) {
                break;
            }
            start = slash + 1;
        }
        for (Route route : ROUTES) {
            if (route.segmentCount() == count && literalsMatch(route, segments)) {
                String[] parameters = new String[route.parameterCount()];
                for (int i = 0, p = 0; i < count; i++) {
                    if (route.literal(i) == null) {
                        parameters[p++] = segments[i];
                    }
                }
                return new RouteMatch(route, List.of(parameters));
            }
        }
        return null;
    }

    private static boolean literalsMatch(Route route, String[] segments) {
        for (int i = 0; i < route.segmentCount(); i++) {
            String literal = route.literal(i);
            if (literal != null && !literal.equals(segments[i])) {
                return false;
            }
        }
        return true;
    }
}
