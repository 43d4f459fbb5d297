package io.upic.liftride.server.store.redis;

import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.store.UnavailableCause;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Group commit: requests queue rides and get a future; committer threads each take what has queued
 * (up to {@code maxBatch}), apply it as one call per hash tag, and complete the futures only after the
 * batch is applied (a 201 means stored). A watchdog fails rides not sent within {@code requestTimeout};
 * a ride is claimed just before its batch is sent and its deadline counted from the claim, so a failure
 * always means "not applied". Thread-safe.
 */
final class GroupCommit implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GroupCommit.class.getName());
    /** How long the committer waits for work before checking whether it should stop. */
    private static final long IDLE_POLL_MILLIS = 100;
    /** How often the watchdog looks for rides past their time: how late, at most, a timeout is noticed. */
    static final long WATCH_MILLIS = 10;
    /** Beyond the batch timeout, for the committer to hand the outcome over. */
    private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final BatchSink sink;
    private final BlockingQueue<PendingRide> queue;
    private final int maxBatch;
    private final long requestTimeoutNanos;
    private final long batchTimeoutNanos;
    private final List<Thread> committers = new ArrayList<>();
    /** Per committer: the rides it has taken from the queue and not yet answered, for the watchdog; or null. */
    private final AtomicReferenceArray<PendingRide[]> taken;

    private final Thread watchdog;
    private volatile boolean closed;

    /**
     * @param requestTimeout how long a ride may wait to be sent before it fails (a 503)
     * @param batchTimeout the longest a sent batch can take (the sink's own timeout); a sent ride's
     *     future waits that long more, and the sink is told not to apply the batch after it
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
        this.taken = new AtomicReferenceArray<>(committers);
        for (int i = 0; i < committers; i++) {
            int slot = i;
            Thread committer = new Thread(() -> commitLoop(slot), "liftride-group-commit-" + i);
            committer.setDaemon(true);
            committer.start();
            this.committers.add(committer);
        }
        this.watchdog = new Thread(this::watchLoop, "liftride-group-commit-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * Queues the ride; the future fails with a {@link StoreUnavailableException} if the ride was not
     * sent in time or its batch failed. Callbacks run on a committer or the watchdog: keep them quick.
     *
     * @throws StoreUnavailableException at once if the store is closed or the queue is full
     */
    CompletableFuture<RideOutcome> submit(PendingRide ride) {
        if (closed) {
            throw new StoreUnavailableException(UnavailableCause.SHUTTING_DOWN, "the ride store is shutting down");
        }
        ride.queuedAtNanos = System.nanoTime();
        if (!queue.offer(ride)) {
            throw new StoreUnavailableException(
                    UnavailableCause.STORE_OVERLOADED,
                    "the ride store is overloaded: " + queue.size() + " rides are waiting to be written");
        }
        return ride.outcome;
    }

    /** Queues the ride and waits for its outcome ({@link #submit}, bounded by the watchdog). */
    RideOutcome apply(PendingRide ride) {
        return RideStore.await(submit(ride));
    }

    /** Fails the rides past their time, every {@value #WATCH_MILLIS} ms, until closed and every ride is answered. */
    private void watchLoop() {
        while (!closed || unanswered()) {
            try {
                Thread.sleep(WATCH_MILLIS);
            } catch (InterruptedException e) {
                // closing: one more look, then the loop's condition decides
            }
            try {
                expire(System.nanoTime());
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "group commit watchdog failed; it keeps watching", e);
            }
        }
    }

    /**
     * Fails queued rides past {@code requestTimeout} (abandoned first, so no committer sends them) and
     * sent rides past their claim plus {@code batchTimeout} plus slack. Expired rides are at the queue's
     * head, so they are polled, not iterated.
     */
    private void expire(long nowNanos) {
        PendingRide head;
        while ((head = queue.peek()) != null && nowNanos - head.queuedAtNanos >= requestTimeoutNanos) {
            if (queue.remove(head)) { // else a committer took it just now: it is in taken below
                expire(head, nowNanos);
            }
        }
        for (PendingRide ride : taken()) {
            expire(ride, nowNanos);
        }
    }

    private boolean unanswered() {
        return !queue.isEmpty() || taken().stream().anyMatch(ride -> !ride.outcome.isDone());
    }

    /** The rides the committers have taken from the queue and not yet answered. */
    private List<PendingRide> taken() {
        List<PendingRide> rides = new ArrayList<>();
        for (int i = 0; i < taken.length(); i++) {
            PendingRide[] batch = taken.get(i);
            if (batch != null) {
                rides.addAll(Arrays.asList(batch));
            }
        }
        return rides;
    }

    private void expire(PendingRide ride, long nowNanos) {
        if (ride.outcome.isDone()) {
            return;
        }
        if (nowNanos - ride.queuedAtNanos >= requestTimeoutNanos && ride.abandon()) {
            ride.outcome.completeExceptionally(new StoreUnavailableException(
                    UnavailableCause.STORE_QUEUE_TIMEOUT,
                    "the ride store did not take the ride within " + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos)
                            + " ms; it was not stored"));
        } else if (ride.sent() && nowNanos - ride.claimedAtNanos >= batchTimeoutNanos + SLACK_NANOS) {
            ride.outcome.completeExceptionally(new StoreUnavailableException(
                    UnavailableCause.STORE_UNREACHABLE, "the ride store did not confirm the ride in time"));
        }
    }

    private void commitLoop(int slot) {
        List<PendingRide> batch = new ArrayList<>(maxBatch);
        while (!closed || !queue.isEmpty()) {
            try {
                PendingRide first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                taken.set(slot, batch.toArray(new PendingRide[0])); // the watchdog sees them from now on
                commit(batch);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } catch (RuntimeException | Error e) {
                LOG.log(Level.SEVERE, "group commit failed; its requests answer 503", e);
                failAll(batch, e);
            } finally {
                taken.set(slot, null);
                batch.clear();
            }
        }
        List<PendingRide> left = new ArrayList<>();
        queue.drainTo(left);
        failAll(left, new StoreUnavailableException(UnavailableCause.SHUTTING_DOWN, "the ride store is shutting down"));
    }

    /** One batch per tag in turn, each claimed at its turn, so later tags can still give up. */
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
        StoreUnavailableException failure = StoreUnavailableException.of(cause);
        for (PendingRide ride : rides) {
            ride.outcome.completeExceptionally(failure);
        }
    }

    /** Rides waiting to be sent. */
    int queued() {
        return queue.size();
    }

    /** Rides queued or in a batch under way, for a drain; may miss one for an instant. */
    int pending() {
        return queue.size() + taken().size();
    }

    /** Rides that may wait at most; one more is refused with 503. */
    int capacity() {
        return queue.size() + queue.remainingCapacity();
    }

    /** Stops taking rides, fails queued ones, waits up to 5 s for committers; the watchdog runs on. */
    @Override
    public void close() {
        closed = true;
        committers.forEach(Thread::interrupt);
        watchdog.interrupt();
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
