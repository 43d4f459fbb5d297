package io.upic.liftride.server.model;

/** The validated path of {@code /resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers}; immutable. */
public record ResortDay(int resortId, int seasonId, int dayId) {}
