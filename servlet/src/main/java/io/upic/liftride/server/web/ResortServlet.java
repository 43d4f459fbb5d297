package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.model.Resort;
import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.routing.HttpMethod;
import io.upic.liftride.server.routing.Route;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.validation.JsonBodies;
import io.upic.liftride.server.validation.PathParams;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /resorts} and {@code /resorts/*}: list resorts, list and add a resort's seasons, count a
 * day's unique skiers. Thread-safe: stateless.
 */
public final class ResortServlet extends RouteServlet {
    private static final long serialVersionUID = 1L;

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
                int resortId = PathParams.resortId(match).value();
                if (method == HttpMethod.POST) {
                    addSeason(resortId, request, response);
                } else {
                    seasons(resortId, response);
                }
                break;
            case RESORT_DAY_SKIERS:
                uniqueSkiers(PathParams.resortDay(match).value(), response);
                break;
            default:
                throw new IllegalArgumentException("route must be served by this servlet, got " + match.route());
        }
    }

    private void resorts(HttpServletResponse response) throws IOException {
        List<Object> resorts = store().resorts().stream()
                .map(resort -> JsonResponses.object("resortName", resort.name(), "resortID", resort.id()))
                .collect(Collectors.toList());
        JsonResponses.send(response, HttpServletResponse.SC_OK, Map.of("resorts", resorts));
    }

    private void seasons(int resortId, HttpServletResponse response) throws IOException {
        if (store().resort(resortId).isEmpty()) {
            resortNotFound(resortId, response);
            return;
        }
        List<String> seasons =
                store().seasons(resortId).stream().map(Seasons::format).toList();
        JsonResponses.send(response, HttpServletResponse.SC_OK, Map.of("seasons", seasons));
    }

    private void addSeason(int resortId, HttpServletRequest request, HttpServletResponse response) throws IOException {
        String client = request.getRemoteAddr();
        readJson(request, response, body -> {
            int year = JsonBodies.seasonYear(body.value().bytes(), body.value().length())
                    .value();
            if (store().addSeason(resortId, year, client)) {
                JsonResponses.created(response);
            } else {
                resortNotFound(resortId, response);
            }
        });
    }

    private void uniqueSkiers(ResortDay day, HttpServletResponse response) throws IOException {
        Optional<Resort> resort = store().resort(day.resortId());
        if (resort.isEmpty()) {
            resortNotFound(day.resortId(), response);
            return;
        }
        if (!store().seasons(day.resortId()).contains(day.seasonId())) {
            JsonResponses.message(
                    response,
                    HttpServletResponse.SC_NOT_FOUND,
                    "season " + Seasons.format(day.seasonId()) + " not found at resort " + day.resortId());
            return;
        }
        int skiers = store().uniqueSkiers(day);
        JsonResponses.send(
                response,
                HttpServletResponse.SC_OK,
                JsonResponses.object("time", resort.get().name(), "numSkiers", skiers));
    }

    private static void resortNotFound(int resortId, HttpServletResponse response) throws IOException {
        JsonResponses.message(response, HttpServletResponse.SC_NOT_FOUND, "resort " + resortId + " not found");
    }
}
