package io.upic.liftride.client.engine;

/**
 * A snapshot of a running run for a progress display. Immutable.
 *
 * @param phaseName         the most recently started phase
 * @param phasesStarted     phases started so far
 * @param phaseCount        phases in the plan
 * @param done              requests finished (successful or failed)
 * @param planned           requests in the plan
 * @param failed            requests failed so far
 * @param requestsPerSecond requests finished per second since the previous snapshot
 * @param elapsedNanos      since the run's clock started
 * @param finished          true for the last snapshot, taken after every worker finished
 * @param offeredPerSecond  open model (--rate): requests per second the threads running now are scheduled to send;
 *                          NaN in the closed model
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
