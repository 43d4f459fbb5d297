package io.upic.liftride.server.model;

/** A resort as {@code GET /resorts} lists it; immutable. */
public record Resort(int id, String name) {}
