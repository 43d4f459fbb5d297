package io.upic.liftride.client.engine;

/** The constant path values of every ride a run sends and the lift range. Immutable and thread-safe. */
public record RideValues(int resortId, int seasonId, int dayId, int numLifts) {

    /** The values of a run that names none: resort 1, season 2022, day 1, 40 lifts. */
    public static final RideValues DEFAULT = new RideValues(1, 2022, 1, 40);

    public RideValues {
        if (resortId < 1) {
            throw new IllegalArgumentException("resortId < 1: " + resortId);
        }
        if (seasonId < 0) {
            throw new IllegalArgumentException("seasonId < 0: " + seasonId);
        }
        if (dayId < 1) {
            throw new IllegalArgumentException("dayId < 1: " + dayId);
        }
        if (numLifts < 1) {
            throw new IllegalArgumentException("numLifts < 1: " + numLifts);
        }
    }
}
