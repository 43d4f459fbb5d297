package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Group commit: request threads queue their rides and wait; committer threads each take whatever has
 * queued (up to {@code maxBatch}), apply it as one call per hash tag, and answer every waiting
 * request. Several committers keep several batches in flight, so the next batch is on its way while
 * Redis works on one (the order of rides within a batch or across batches carries no meaning). Under
 * load a batch holds many rides, so the store's per-call cost is paid once per batch instead of once
 * per request; when idle a ride goes alone at once. A request is answered only after
 * its batch is applied (a 201 means stored).
 *
 * <p>Every wait is bounded: a ride still queued after {@code requestTimeout} is abandoned and never
 * sent; a ride already sent waits for its batch, which the sink bounds by its own timeout. A 503 means
 * "not applied": a ride is claimed only just before its own tag's batch is sent, and that batch's
 * deadline is counted from the claim, so a request that gives up on a sent ride (at its claim plus
 * {@code batchTimeout} plus a slack) always gives up after the deadline the sink enforces, however
 * long the batches of other tags sent before it took. Thread-safe.
 */
final class GroupCommit implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GroupCommit.class.getName());
    /** How long the committer waits for work before checking whether it should stop. */
    private static final long IDLE_POLL_MILLIS = 100;
    /** Beyond the batch timeout, for the committer to hand the outcome over. */
    private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final BatchSink sink;
    private final BlockingQueue<PendingRide> queue;
    private final int maxBatch;
    private final long requestTimeoutNanos;
    private final long batchTimeoutNanos;
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param requestTimeout how long a request waits for its ride to be sent before it answers 503
     * @param batchTimeout the longest a sent batch can take (the sink's own timeout); a sent ride's
     *     request waits that long more, and the sink is told not to apply the batch after it
     */
    GroupCommit(
            BatchSink sink,
            int committers,
            int maxBatch,
            int queueCapacity,
            Duration requestTimeout,
            Duration batchTimeout) {
        if (committers < 1) {
            throw new IllegalArgumentException("committers < 1: " + committers);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch < 1: " + maxBatch);
        }
        this.sink = sink;
        this.maxBatch = maxBatch;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.requestTimeoutNanos = requestTimeout.toNanos();
        this.batchTimeoutNanos = batchTimeout.toNanos();
        for (int i = 0; i < committers; i++) {
            Thread committer = new Thread(this::commitLoop, "liftride-group-commit-" + i);
            committer.setDaemon(true);
            committer.start();
            this.committers.add(committer);
        }
    }

    /**
     * Queues the ride and waits for its batch; returns its outcome.
     *
     * @throws StoreUnavailableException if the queue is full, the ride was not sent in time, or its
     *     batch failed
     */
    RideOutcome apply(PendingRide ride) {
        if (closed) {
            throw new StoreUnavailableException("the ride store is shutting down");
        }
        if (!queue.offer(ride)) {
            throw new StoreUnavailableException(
                    "the ride store is overloaded: " + queue.size() + " rides are waiting to be written");
        }
        try {
            return ride.outcome.get(requestTimeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (ride.abandon()) {
                throw new StoreUnavailableException("the ride store did not take the ride within "
                        + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos) + " ms; it was not stored");
            }
            return awaitSent(ride);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return awaitSent(ride); // the batch may be under way: report what it did if it can be known
        } catch (ExecutionException e) {
            throw unavailable(e.getCause());
        }
    }

    /**
     * A sent ride's batch is applied before its deadline (its claim plus the batch timeout) or never;
     * wait until that deadline plus slack, so a 503 from here is always given after the deadline.
     */
    private RideOutcome awaitSent(PendingRide ride) {
        long waitNanos = ride.claimedAtNanos() + batchTimeoutNanos + SLACK_NANOS - System.nanoTime();
        try {
            return ride.outcome.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            ride.abandon();
            throw new StoreUnavailableException("the ride store did not confirm the ride in time", e);
        } catch (ExecutionException e) {
            throw unavailable(e.getCause());
        }
    }

    private static StoreUnavailableException unavailable(Throwable cause) {
        return cause instanceof StoreUnavailableException s
                ? s
                : new StoreUnavailableException("the ride store failed: " + cause, cause);
    }

    private void commitLoop() {
        List<PendingRide> taken = new ArrayList<>(maxBatch);
        while (!closed || !queue.isEmpty()) {
            try {
                PendingRide first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                taken.add(first);
                queue.drainTo(taken, maxBatch - 1);
                commit(taken);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } catch (RuntimeException | Error e) {
                LOG.log(Level.SEVERE, "group commit failed; its requests answer 503", e);
                failAll(taken, e);
            } finally {
                taken.clear();
            }
        }
        List<PendingRide> left = new ArrayList<>();
        queue.drainTo(left);
        failAll(left, new StoreUnavailableException("the ride store is shutting down"));
    }

    /**
     * Sends one batch per tag, one after the other. Each tag's rides are claimed only when that tag's
     * turn comes, and its deadline counted from that moment: while an earlier tag's batch is slow, the
     * later tags' requests can still give up (and their rides are then never sent).
     */
    private void commit(List<PendingRide> taken) {
        Map<String, List<PendingRide>> byTag = new LinkedHashMap<>();
        for (PendingRide ride : taken) {
            byTag.computeIfAbsent(ride.tag, t -> new ArrayList<>()).add(ride);
        }
        for (Map.Entry<String, List<PendingRide>> batch : byTag.entrySet()) {
            long claimedAtNanos = System.nanoTime();
            long deadlineNanos = claimedAtNanos + batchTimeoutNanos;
            List<PendingRide> rides = new ArrayList<>(batch.getValue().size());
            for (PendingRide ride : batch.getValue()) {
                if (ride.claim(claimedAtNanos)) {
                    rides.add(ride);
                }
            }
            if (rides.isEmpty()) {
                continue;
            }
            try {
                List<RideOutcome> outcomes = sink.apply(batch.getKey(), rides, deadlineNanos);
                for (int i = 0; i < rides.size(); i++) {
                    rides.get(i).outcome.complete(outcomes.get(i));
                }
            } catch (RuntimeException e) {
                failAll(rides, e);
            }
        }
    }

    private static void failAll(List<PendingRide> rides, Throwable cause) {
        StoreUnavailableException failure = unavailable(cause);
        for (PendingRide ride : rides) {
            ride.outcome.completeExceptionally(failure);
        }
    }

    /** Rides waiting to be sent. */
    int queued() {
        return queue.size();
    }

    /** Rides that may wait at most; one more is refused with 503. */
    int capacity() {
        return queue.size() + queue.remainingCapacity();
    }

    /** Stops taking rides, answers the queued ones 503, and waits for the committers (at most 5 s). */
    @Override
    public void close() {
        closed = true;
        committers.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        try {
            for (Thread committer : committers) {
                committer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
