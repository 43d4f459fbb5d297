package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SeasonVertical;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.model.SkierVerticalQuery;
import io.upic.liftride.server.operations.ContextAttributes;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.store.LimitReachedException;
import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.validation.IdempotencyKeys;
import io.upic.liftride.server.validation.JsonBodies;
import io.upic.liftride.server.validation.PathParams;
import io.upic.liftride.server.validation.QueryParams;
import io.upic.liftride.server.validation.Result;
import io.upic.liftride.server.validation.Values;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /skiers/*}: POST a lift ride, GET a skier's day vertical, GET a skier's season totals.
 * Thread-safe: its only field, the store, is set once in {@link #init()}.
 */
public final class SkierServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

    /** Set on a 201 that answers a retry: the ride was stored by an earlier request with the same key. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** A key reused with another ride: the request is well formed, but cannot be applied as sent. */
    static final int UNPROCESSABLE_ENTITY = 422;

    private transient RideStore store;

    @Override
    public void init() throws ServletException {
        store = ContextAttributes.require(getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
    }

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
        Result<SkierDay> where = PathParams.skierDay(match);
        if (!where.isOk()) {
            JsonResponses.reject(response, where.rejection());
        } else if (method == HttpMethod.POST) {
            writeRide(where.value(), request, response);
        } else {
            dayVertical(where.value(), response);
        }
    }

    private void writeRide(SkierDay where, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Result<Optional<String>> key = IdempotencyKeys.parseHeaders(request.getHeaders(IdempotencyKeys.HEADER));
        if (!key.isOk()) {
            JsonResponses.reject(response, key.rejection());
            return;
        }
        RequestBodies.readJson(
                request,
                response,
                bodyDeadlineMillis(),
                body -> storeRide(where, key.value(), body, request, response));
    }

    /** Stores the ride and answers when the store has applied it, freeing the request thread meanwhile. */
    private void storeRide(
            SkierDay where,
            Optional<String> key,
            Result<RequestBodies.Body> body,
            HttpServletRequest request,
            HttpServletResponse response)
            throws IOException {
        if (!body.isOk()) {
            JsonResponses.reject(response, body.rejection());
            return;
        }
        Result<LiftRide> ride =
                JsonBodies.liftRide(body.value().bytes(), body.value().length());
        if (!ride.isOk()) {
            JsonResponses.reject(response, ride.rejection());
            return;
        }
        CompletableFuture<RideOutcome> outcome =
                store.addRideAsync(where, ride.value(), key.orElse(null), request.getRemoteAddr());
        if (outcome.isDone()) {
            answer(response, key, now(outcome));
            return;
        }
        LaterAnswer later = RequestBodies.answerLater(request, response);
        outcome.whenComplete((stored, failure) -> later.send(() -> {
            if (failure == null) {
                answer(response, key, stored);
            } else if (failure instanceof LimitReachedException refused) {
                limitReached(response, refused);
            } else {
                unavailable(response, StoreUnavailableException.of(failure));
            }
        }));
    }

    /** The outcome of a completed future; its failure thrown as is, for the API's usual answers. */
    private static RideOutcome now(CompletableFuture<RideOutcome> outcome) {
        try {
            return outcome.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : StoreUnavailableException.of(e.getCause());
        }
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
        OptionalLong vertical = store.dayVertical(where);
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
        Result<Integer> skier = PathParams.skierId(match);
        if (!skier.isOk()) {
            JsonResponses.reject(response, skier.rejection());
            return;
        }
        Result<SkierVerticalQuery> query = QueryParams.skierVertical(skier.value(), request.getQueryString());
        if (!query.isOk()) {
            JsonResponses.reject(response, query.rejection());
            return;
        }
        List<SeasonVertical> verticals = store.seasonVerticals(query.value());
        if (verticals.isEmpty()) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "no rides for skier " + skier.value() + " at resort(s) "
                            + Seasons.sortedList(query.value().resorts())
                            + (query.value().seasons().isEmpty()
                                    ? ""
                                    : " in season(s) "
                                            + Seasons.formatAll(query.value().seasons())));
            return;
        }
        JsonResponses.send(response, HttpServletResponse.SC_OK, json -> {
            json.beginObject().name("resorts").beginArray();
            for (SeasonVertical vertical : verticals) {
                json.beginObject()
                        .name("seasonID")
                        .value(Seasons.format(vertical.seasonId()))
                        .name("totalVert")
                        .value(vertical.totalVertical())
                        .endObject();
            }
            json.endArray().endObject();
        });
    }
}
