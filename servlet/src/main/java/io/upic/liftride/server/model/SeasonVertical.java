package io.upic.liftride.server.model;

/** A skier's total vertical in one season, summed over the requested resorts; immutable. */
public record SeasonVertical(int seasonId, long totalVertical) {}
