package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.RunResult;
import java.util.OptionalLong;

/**
 * Does the account add up? Client side: planned == successful + failed + not sent; server side, when it reports
 * its count: stored after - stored before == the client's successful writes. Immutable.
 *
 * @param planned      requests planned
 * @param successful   201s counted by the client
 * @param failed       failed requests
 * @param notSent      requests never attempted
 * @param writes       the rides the client counted as stored (201s), what the server's delta must equal
 * @param storedBefore server's ridesStored read before Phase 1, if available
 * @param storedAfter  server's ridesStored read after the run, if available
 * @param serverNote   why the server side was not checked, or null when it was
 */
public record Reconciliation(
        long planned,
        long successful,
        long failed,
        long notSent,
        long writes,
        OptionalLong storedBefore,
        OptionalLong storedAfter,
        String serverNote) {

    /**
     * Builds the reconciliation of {@code result} from the two server readings (either may be empty); a non-null
     * {@code whyNot} leaves the server side unchecked even with both readings (a shard: other shards write too).
     */
    public static Reconciliation of(RunResult result, OptionalLong before, OptionalLong after, String whyNot) {
        String note = whyNot != null
                ? whyNot
                : before.isPresent() && after.isPresent() ? null : "server did not report ridesStored";
        return new Reconciliation(
                result.requests().planned(),
                result.requests().successful(),
                result.requests().failed(),
                result.requests().notSent(),
                result.successfulWrites(),
                before,
                after,
                note);
    }

    /** planned == successful + failed + notSent. */
    public boolean clientBalanced() {
        return planned == successful + failed + notSent;
    }

    /** Whether the server's count was read before and after. */
    public boolean serverChecked() {
        return serverNote == null;
    }

    /** Server's stored-ride delta over the run; meaningful only if {@link #serverChecked()}. */
    public long serverDelta() {
        return serverChecked() ? storedAfter.getAsLong() - storedBefore.getAsLong() : 0;
    }

    /**
     * Whether the server side could not be checked because a reading failed or was malformed (not because the run
     * is a shard, whose note says why): the counts are then unverified, which {@link ExitCodes#UNCHECKED} says.
     */
    public boolean unverifiable() {
        return storedBefore.isEmpty() || storedAfter.isEmpty();
    }

    /** Whether the server's delta equals the rides the client counted as stored; meaningful only if checked. */
    public boolean serverReconciled() {
        return serverDelta() == writes;
    }

    /** True unless a check was made and failed (an unchecked server side is not a failure). */
    public boolean ok() {
        return clientBalanced() && (!serverChecked() || serverReconciled());
    }
}
