package io.upic.liftride.client.engine;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.Ramp;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The progress thread: once per interval it sums the started crews' live counters into a {@link Progress}, and
 * after the workers are joined it makes the final snapshot, so both come from the same counters. A listener that
 * throws ends the periodic snapshots (a broken display must not affect the run) and is ignored for the final one.
 */
final class ProgressTicker extends Thread {

    private final ProgressListener listener;
    private final long intervalNanos;
    private final LoadPlan plan;
    private final List<Crew> crews;
    private final OpenModel openModel;
    private final Ramp ramp;
    private final long startNanos;
    private volatile boolean finished;

    ProgressTicker(
            ProgressListener listener,
            long intervalNanos,
            LoadPlan plan,
            List<Crew> crews,
            OpenModel open,
            Ramp ramp,
            long start) {
        super("liftride-progress");
        setDaemon(true);
        this.listener = listener;
        this.intervalNanos = intervalNanos;
        this.plan = plan;
        this.crews = crews;
        this.openModel = open;
        this.ramp = ramp;
        this.startNanos = start;
    }

    @Override
    public void run() {
        long lastDone = 0;
        long lastNanos = startNanos;
        long next = startNanos + intervalNanos;
        while (!finished) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(this, wait);
                continue; // re-check finished and the deadline (park may return early)
            }
            next += intervalNanos;
            long now = System.nanoTime();
            Progress p = snapshot(now, lastDone, lastNanos, false);
            lastDone = p.done();
            lastNanos = now;
            try {
                listener.onProgress(p);
            } catch (RuntimeException e) {
                return;
            }
        }
    }

    /**
     * Stops the periodic snapshots, waits for the thread (so the final snapshot never overlaps a periodic one), and
     * sends the final snapshot taken at {@code endNanos}. Returns whether the wait was interrupted.
     */
    boolean finish(long endNanos, Runnable onInterrupt) {
        finished = true;
        LockSupport.unpark(this);
        boolean interrupted = Crew.joinUninterruptibly(this, onInterrupt);
        try {
            listener.onProgress(snapshot(endNanos, 0, endNanos, true));
        } catch (RuntimeException e) {
            // a broken display must not cost the listener its onRunEnd (client-part2's summary)
        }
        return interrupted;
    }

    private Progress snapshot(long now, long lastDone, long lastNanos, boolean last) {
        long done = 0, failed = 0;
        int started = 0;
        int running = 0;
        for (Crew c : crews) {
            if (!c.tracker().started()) {
                break;
            }
            started++;
            running += c.tracker().running();
            done += c.done();
            failed += c.failedSoFar();
        }
        double rate = now > lastNanos ? (done - lastDone) * 1e9 / (now - lastNanos) : 0;
        double offered = ramp != null
                ? last ? 0 : ramp.ratePerSecondAt(now - startNanos)
                : openModel == null ? Double.NaN : last ? 0 : openModel.offeredPerSecond(running);
        return new Progress(
                plan.phases().get(Math.max(0, started - 1)).name(),
                started,
                plan.phases().size(),
                done,
                plan.totalRequests(),
                failed,
                rate,
                now - startNanos,
                last,
                offered);
    }
}
