package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.operations.ContextAttributes;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.validation.JsonBodies;
import io.upic.liftride.server.validation.PathParams;
import io.upic.liftride.server.validation.Result;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /resorts} and {@code /resorts/*}: list resorts, list and add a resort's seasons, count a
 * day's unique skiers. Thread-safe: its only field, the store, is set once in {@link #init()}.
 */
public final class ResortServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

    private transient RideStore store;

    @Override
    public void init() throws ServletException {
        store = ContextAttributes.require(getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
    }

    @Override
    protected boolean serves(Route route) {
        return route == Route.RESORTS || route == Route.RESORT_SEASONS || route == Route.RESORT_DAY_SKIERS;
    }

    @Override
    protected void serve(RouteMatch match, HttpMethod method, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        switch (match.route()) {
            case RESORTS:
                resorts(response);
                break;
            case RESORT_SEASONS:
                Result<Integer> resortId = PathParams.resortId(match);
                if (!resortId.isOk()) {
                    JsonResponses.reject(response, resortId.rejection());
                } else if (method == HttpMethod.POST) {
                    addSeason(resortId.value(), request, response);
                } else {
                    seasons(resortId.value(), response);
                }
                break;
            case RESORT_DAY_SKIERS:
                Result<ResortDay> day = PathParams.resortDay(match);
                if (!day.isOk()) {
                    JsonResponses.reject(response, day.rejection());
                } else {
                    uniqueSkiers(day.value(), response);
                }
                break;
            default:
                throw new IllegalArgumentException("route must be served by this servlet, got " + match.route());
        }
    }

    private void resorts(HttpServletResponse response) throws IOException {
        List<Resort> resorts = store.resorts();
        JsonResponses.send(response, HttpServletResponse.SC_OK, json -> {
            json.beginObject().name("resorts").beginArray();
            for (Resort resort : resorts) {
                json.beginObject()
                        .name("resortName")
                        .value(resort.name())
                        .name("resortID")
                        .value(resort.id())
                        .endObject();
            }
            json.endArray().endObject();
        });
    }

    private void seasons(int resortId, HttpServletResponse response) throws IOException {
        if (store.resort(resortId).isEmpty()) {
            resortNotFound(resortId, response);
            return;
        }
        List<Integer> seasons = store.seasons(resortId);
        JsonResponses.send(response, HttpServletResponse.SC_OK, json -> {
            json.beginObject().name("seasons").beginArray();
            for (int season : seasons) {
                json.value(Seasons.format(season));
            }
            json.endArray().endObject();
        });
    }

    private void addSeason(int resortId, HttpServletRequest request, HttpServletResponse response) throws IOException {
        String client = request.getRemoteAddr();
        RequestBodies.readJson(
                request, response, bodyDeadlineMillis(), body -> addSeason(resortId, client, body, response));
    }

    /** Adds the season in {@code body} (on whichever thread the body's reading ends). */
    private void addSeason(int resortId, String client, Result<RequestBodies.Body> body, HttpServletResponse response)
            throws IOException {
        if (!body.isOk()) {
            JsonResponses.reject(response, body.rejection());
            return;
        }
        Result<Integer> year =
                JsonBodies.seasonYear(body.value().bytes(), body.value().length());
        if (!year.isOk()) {
            JsonResponses.reject(response, year.rejection());
            return;
        }
        if (!store.addSeason(resortId, year.value(), client)) {
            resortNotFound(resortId, response);
            return;
        }
        JsonResponses.created(response);
    }

    private void uniqueSkiers(ResortDay day, HttpServletResponse response) throws IOException {
        Optional<Resort> resort = store.resort(day.resortId());
        if (resort.isEmpty()) {
            resortNotFound(day.resortId(), response);
            return;
        }
        if (!store.seasons(day.resortId()).contains(day.seasonId())) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "season " + Seasons.format(day.seasonId()) + " not found at resort " + day.resortId());
            return;
        }
        int skiers = store.uniqueSkiers(day);
        JsonResponses.send(
                response,
                HttpServletResponse.SC_OK,
                json -> json.beginObject()
                        .name("time")
                        .value(resort.get().name())
                        .name("numSkiers")
                        .value(skiers)
                        .endObject());
    }

    private static void resortNotFound(int resortId, HttpServletResponse response) throws IOException {
        JsonResponses.message(response, HttpServletResponse.SC_NOT_FOUND, "resort " + resortId + " not found");
    }
}
