package io.upic.liftride.server.model;

/**
 * One validated lift ride body; immutable. {@code waitTime} is {@link #NO_WAIT_TIME} when the client
 * left it out (it is optional so that bodies of every assignment edition are accepted).
 */
public record LiftRide(int liftId, int time, int waitTime) {
    /** The value of {@link #waitTime()} when the body carried none. */
    public static final int NO_WAIT_TIME = -1;

    /** The vertical metres one ride on this lift adds: liftID x 10 (assignment 3). */
    public int vertical() {
        return liftId * 10;
    }
}
