package io.upic.liftride.server.model;

import java.util.Set;

/** The validated {@code GET /skiers/{skierID}/vertical}; immutable. Empty {@code seasons}: all. */
public record SkierVerticalQuery(int skierId, Set<Integer> resorts, Set<Integer> seasons) {
    public SkierVerticalQuery {
        resorts = Set.copyOf(resorts);
        seasons = Set.copyOf(seasons);
    }
}
