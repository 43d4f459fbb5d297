package io.upic.liftride.client.report;

import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.Shard;
import java.util.Locale;

/** What a {@code --shard K/N} run says about itself on screen, in one place. Static and thread-safe. */
public final class ShardNotes {

    private ShardNotes() {}

    /** The line under the plan: which part of the whole plan this process sends. */
    public static String planLine(Shard shard, LoadPlan whole, LoadPlan mine) {
        return String.format(
                Locale.US,
                "Shard %s: this process sends %,d of the plan's %,d requests with %d of its %d threads (dealt"
                        + " round-robin); each phase starts when ITS OWN threads of the previous phase reach the"
                        + " trigger, so shards' phases are not aligned",
                shard,
                mine.totalRequests(),
                whole.totalRequests(),
                mine.totalThreads(),
                whole.totalThreads());
    }

    /**
     * Why a shard does not check the server's stored-ride count against its own successes: the other shards store
     * rides on the same server meanwhile. The merge of all shards compares the total instead.
     */
    public static String serverNotReconciled(Shard shard, ServerProbe.Answer before, ServerProbe.Answer after) {
        return String.format(
                Locale.US,
                "shard %s: ridesStored went %,d -> %,d, but other shards store rides on the same server meanwhile;"
                        + " merge the shards to check the total",
                shard,
                before.ridesStored().getAsLong(),
                after.ridesStored().getAsLong());
    }
}
