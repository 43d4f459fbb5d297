package io.upic.liftride.client.plan;

/**
 * One worker thread's assignment in a phase: which phase, its index in the phase, its skier range, how many
 * requests to send and the minutes its rides may have; {@link PhasePlan} builds it consistent. Immutable and
 * thread-safe.
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

    /** Number of skiers in the range, {@code skierTo - skierFrom + 1}. */
    public int skiers() {
        return skierTo - skierFrom + 1;
    }
}
