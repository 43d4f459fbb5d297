package io.upic.liftride.server.model;

/** The validated path of {@code /skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}}; immutable. */
public record SkierDay(int resortId, int seasonId, int dayId, int skierId) {}
