package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.validation.IdempotencyKeys;
import io.upic.liftride.server.validation.JsonBodies;
import io.upic.liftride.server.validation.PathParams;
import io.upic.liftride.server.validation.QueryParams;
import io.upic.liftride.server.validation.Values;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /skiers/*}: POST a lift ride, GET a skier's day vertical, GET a skier's season totals.
 * Thread-safe: stateless.
 */
public final class SkierServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

    /** Set on a 201 that answers a retry: the ride was stored by an earlier request with the same key. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** A key reused with another ride: the request is well formed, but cannot be applied as sent. */
    static final int UNPROCESSABLE_ENTITY = 422;

    @Override
    protected boolean serves(Route route) {
        return route == Route.SKIER_DAY || route == Route.SKIER_VERTICAL;
    }

    @Override
    protected void serve(RouteMatch match, HttpMethod method, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (match.route() == Route.SKIER_VERTICAL) {
            seasonVerticals(match, request, response);
            return;
        }
        SkierDay where = PathParams.skierDay(match).value();
        if (method == HttpMethod.POST) {
            writeRide(where, request, response);
        } else {
            dayVertical(where, response);
        }
    }

    private void writeRide(SkierDay where, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Optional<String> key = IdempotencyKeys.parseHeaders(request.getHeaders(IdempotencyKeys.HEADER))
                .value();
        readJson(request, response, body -> storeRide(where, key, body.value(), request, response));
    }

    /** Stores the ride and answers when the store has applied it, freeing the request thread meanwhile. */
    private void storeRide(
            SkierDay where,
            Optional<String> key,
            RequestBodies.Body body,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        LiftRide ride = JsonBodies.liftRide(body.bytes(), body.length()).value();
        CompletableFuture<RideOutcome> outcome =
                store().addRideAsync(where, ride, key.orElse(null), request.getRemoteAddr());
        if (outcome.isDone()) {
            answer(response, key, RideStore.await(outcome));
            return;
        }
        LaterAnswer later = RequestBodies.answerLater(request, response);
        outcome.whenComplete((stored, failure) -> later.send(() -> {
            if (failure == null) {
                answer(response, key, stored);
            } else {
                fail(response, failure);
            }
        }));
    }

    /**
     * 201, with {@value #REPLAYED_HEADER} if a retry; or 422 if the key was used for another ride (409
     * stays for limits).
     */
    private static void answer(HttpServletResponse response, Optional<String> key, RideOutcome outcome)
            throws IOException {
        if (outcome == RideOutcome.KEY_REUSED) {
            JsonResponses.message(
                    response,
                    UNPROCESSABLE_ENTITY,
                    IdempotencyKeys.HEADER + " " + Values.quote(key.orElseThrow())
                            + " was already used for a different ride of this skier, resort, season and day;"
                            + " nothing was stored");
            return;
        }
        if (outcome == RideOutcome.REPLAYED) {
            response.setHeader(REPLAYED_HEADER, "true");
        }
        JsonResponses.created(response);
    }

    private void dayVertical(SkierDay where, HttpServletResponse response) throws IOException {
        OptionalLong vertical = store().dayVertical(where);
        if (vertical.isEmpty()) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "no rides for skier " + where.skierId() + " at resort " + where.resortId() + ", season "
                            + Seasons.format(where.seasonId()) + ", day " + where.dayId());
            return;
        }
        JsonResponses.send(response, HttpServletResponse.SC_OK, Long.toString(vertical.getAsLong()));
    }

    private void seasonVerticals(RouteMatch match, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        int skier = PathParams.skierId(match).value();
        SkierVerticalQuery query =
                QueryParams.skierVertical(skier, request.getQueryString()).value();
        List<SeasonVertical> verticals = store().seasonVerticals(query);
        if (verticals.isEmpty()) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "no rides for skier " + skier + " at resort(s) "
                            + Seasons.sortedList(query.resorts(), String::valueOf)
                            + (query.seasons().isEmpty()
                                    ? ""
                                    : " in season(s) " + Seasons.sortedList(query.seasons(), Seasons::format)));
            return;
        }
        List<Object> resorts = verticals.stream()
                .map(v ->
                        JsonResponses.object("seasonID", Seasons.format(v.seasonId()), "totalVert", v.totalVertical()))
                .collect(Collectors.toList());
        JsonResponses.send(response, HttpServletResponse.SC_OK, Map.of("resorts", resorts));
    }
}
