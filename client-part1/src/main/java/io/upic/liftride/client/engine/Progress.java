package io.upic.liftride.client.engine;

/**
 * A snapshot of a running run for a progress display. Immutable.
 *
 * @param requestsPerSecond requests finished per second since the previous snapshot
 * @param finished          true for the last snapshot, taken after every worker finished
 * @param offeredPerSecond  open model: requests per second the running threads are scheduled to send; NaN otherwise
 */
public record Progress(
        String phaseName,
        int phasesStarted,
        int phaseCount,
        long done,
        long planned,
        long failed,
        double requestsPerSecond,
        long elapsedNanos,
        boolean finished,
        double offeredPerSecond) {

    /** Whether the run is an open-model run (--rate), whose snapshots carry the offered rate. */
    public boolean openModel() {
        return !Double.isNaN(offeredPerSecond);
    }
}
