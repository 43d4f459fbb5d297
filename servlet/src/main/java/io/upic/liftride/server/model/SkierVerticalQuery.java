package io.upic.liftride.server.model;

import java.util.Set;

/**
 * The validated request {@code GET /skiers/{skierID}/vertical?resort=..&season=..}; immutable.
 * An empty {@code seasons} set means "every season".
 */
public record SkierVerticalQuery(int skierId, Set<Integer> resorts, Set<Integer> seasons) {
    public SkierVerticalQuery {
        resorts = Set.copyOf(resorts);
        seasons = Set.copyOf(seasons);
    }
}
