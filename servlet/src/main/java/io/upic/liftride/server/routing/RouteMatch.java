package io.upic.liftride.server.routing;

import java.util.List;

/** A path that has a route's shape, and its parameter segments in template order, still unvalidated; immutable. */
public record RouteMatch(Route route, List<String> parameters) {

    public String parameter(int index) {
        return parameters.get(index);
    }
}
