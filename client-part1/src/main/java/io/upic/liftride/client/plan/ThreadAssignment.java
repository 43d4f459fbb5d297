package io.upic.liftride.client.plan;

/**
 * One worker thread's assignment in a phase: which phase, its index in the phase, its skier range, how many
 * requests to send and the minutes its rides may have. Immutable and thread-safe.
 *
 * @param phaseIndex  0-based index of the phase in the plan
 * @param phaseName   the phase's name, for output
 * @param threadIndex 0-based index of the thread within its phase
 * @param skierFrom   first skierID of the range (inclusive, >= 1)
 * @param skierTo     last skierID of the range (inclusive)
 * @param requests    requests this thread sends (successful or failed, each counted once)
 * @param startMinute first minute of the time window (inclusive)
 * @param endMinute   last minute of the time window (inclusive)
 */
public record ThreadAssignment(
        int phaseIndex,
        String phaseName,
        int threadIndex,
        int skierFrom,
        int skierTo,
        int requests,
        int startMinute,
        int endMinute) {

    public ThreadAssignment {
        if (phaseIndex < 0) {
            throw new IllegalArgumentException("phaseIndex < 0: " + phaseIndex);
        }
        if (threadIndex < 0) {
            throw new IllegalArgumentException("threadIndex < 0: " + threadIndex);
        }
        if (skierFrom < 1) {
            throw new IllegalArgumentException("skierFrom < 1: " + skierFrom);
        }
        if (skierTo < skierFrom) {
            throw new IllegalArgumentException("skierTo < skierFrom: " + skierTo + " < " + skierFrom);
        }
        if (requests < 0) {
            throw new IllegalArgumentException("requests < 0: " + requests);
        }
        if (startMinute < 1 || endMinute < startMinute) {
            throw new IllegalArgumentException("bad time window: " + startMinute + ".." + endMinute);
        }
    }

    /** Number of skiers in the range, {@code skierTo - skierFrom + 1}. */
    public int skiers() {
        return skierTo - skierFrom + 1;
    }
}
