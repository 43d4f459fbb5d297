package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.store.RideOutcome;
import io.upic.liftride.server.store.StoreUnavailableException;
import io.upic.liftride.server.store.UnavailableCause;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupCommitTest {
    private final ExecutorService requests = Executors.newCachedThreadPool();
    private GroupCommit commits;

    @AfterEach
    void stop() {
        if (commits != null) {
            commits.close();
        }
        requests.shutdownNow();
    }

    private static PendingRide ride(String tag, int skier) {
        return new PendingRide(tag, 1, skier, 10, null, skier, null);
    }

    private static List<RideOutcome> allStored(List<PendingRide> rides) {
        return Collections.nCopies(rides.size(), RideOutcome.STORED);
    }

    @Test
    void answersEachRideWithItsOwnOutcome() {
        commits = new GroupCommit(
                (tag, rides, deadline) -> rides.stream()
                        .map(r -> r.skier % 2 == 0 ? RideOutcome.STORED : RideOutcome.REPLAYED)
                        .toList(),
                1,
                64,
                100,
                Duration.ofSeconds(2),
                Duration.ofSeconds(1));
        assertEquals(RideOutcome.STORED, commits.apply(ride("{a}", 2)));
        assertEquals(RideOutcome.REPLAYED, commits.apply(ride("{a}", 3)));
    }

    @Test
    void gathersWaitingRidesIntoBatchesOfOneTagEach() throws Exception {
        CountDownLatch firstBatchEntered = new CountDownLatch(1);
        CountDownLatch releaseFirstBatch = new CountDownLatch(1);
        List<String> batches = Collections.synchronizedList(new ArrayList<>());
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    batches.add(tag + " x" + rides.size());
                    firstBatchEntered.countDown();
                    await(releaseFirstBatch);
                    return allStored(rides);
                },
                1,
                64,
                1000,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        Future<RideOutcome> first = requests.submit(() -> commits.apply(ride("{a}", 1)));
        assertTrue(firstBatchEntered.await(5, TimeUnit.SECONDS));
        List<Future<RideOutcome>> later = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String tag = i % 2 == 0 ? "{a}" : "{b}";
            int skier = i;
            later.add(requests.submit(() -> commits.apply(ride(tag, skier))));
        }
        while (commits.queued() < 20) {
            Thread.sleep(1);
        }
        releaseFirstBatch.countDown();
        assertEquals(RideOutcome.STORED, first.get(5, TimeUnit.SECONDS));
        for (Future<RideOutcome> f : later) {
            assertEquals(RideOutcome.STORED, f.get(5, TimeUnit.SECONDS));
        }
        // the queue's order decides which tag goes first, and the request threads race to it
        assertEquals("{a} x1", batches.get(0));
        assertEquals(
                List.of("{a} x10", "{b} x10"),
                batches.subList(1, batches.size()).stream().sorted().toList(),
                "20 waiting rides went in one call per tag");
    }

    @Test
    void answersUnavailableWhenTheBatchFailsAndWorksAgainAfterwards() {
        AtomicInteger calls = new AtomicInteger();
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("connection refused");
                    }
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofSeconds(2),
                Duration.ofSeconds(1));
        StoreUnavailableException e =
                assertThrows(StoreUnavailableException.class, () -> commits.apply(ride("{a}", 1)));
        assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
        assertEquals(UnavailableCause.STORE_OTHER, e.unavailableCause(), "the sink did not name the cause");
        assertEquals(RideOutcome.STORED, commits.apply(ride("{a}", 1)));
    }

    @Test
    void neverSendsARideWhoseRequestGaveUpWhileItWaited() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        List<Integer> sentSkiers = Collections.synchronizedList(new ArrayList<>());
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    rides.forEach(r -> sentSkiers.add(r.skier));
                    if (rides.get(0).skier == 1) {
                        await(stuck); // the store hangs on the first batch
                    }
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofMillis(300),
                Duration.ofSeconds(10));
        Future<RideOutcome> hung = requests.submit(() -> commits.apply(ride("{a}", 1)));
        while (sentSkiers.isEmpty()) {
            Thread.sleep(1);
        }
        long start = System.nanoTime();
        StoreUnavailableException e =
                assertThrows(StoreUnavailableException.class, () -> commits.apply(ride("{a}", 2)));
        assertEquals(UnavailableCause.STORE_QUEUE_TIMEOUT, e.unavailableCause());
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMillis >= 250 && waitedMillis < 2_000, "gave up after the request timeout: " + waitedMillis);
        stuck.countDown();
        assertEquals(RideOutcome.STORED, hung.get(5, TimeUnit.SECONDS));
        assertEquals(RideOutcome.STORED, commits.apply(ride("{a}", 3)));
        assertEquals(List.of(1, 3), sentSkiers, "ride 2 was abandoned before it was sent, so it never was");
    }

    @Test
    void boundsTheWaitOfARideAlreadySentToAStoreThatHangs() {
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    await(new CountDownLatch(1)); // hangs until the committer is interrupted at close
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofMillis(200),
                Duration.ofMillis(300));
        long start = System.nanoTime();
        assertThrows(StoreUnavailableException.class, () -> commits.apply(ride("{a}", 1)));
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waitedMillis < 1_500, "request timeout + batch timeout + slack, got " + waitedMillis + " ms");
    }

    @Test
    void refusesAtOnceWhenTheQueueIsFull() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    entered.countDown();
                    await(stuck);
                    return allStored(rides);
                },
                1,
                1,
                2,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        List<Future<RideOutcome>> waiting = new ArrayList<>();
        waiting.add(requests.submit(() -> commits.apply(ride("{a}", 1))));
        assertTrue(entered.await(5, TimeUnit.SECONDS), "the committer holds ride 1"); // else it could take 2 and 3
        waiting.add(requests.submit(() -> commits.apply(ride("{a}", 2))));
        waiting.add(requests.submit(() -> commits.apply(ride("{a}", 3))));
        while (commits.queued() < 2) {
            Thread.sleep(1);
        }
        StoreUnavailableException e =
                assertThrows(StoreUnavailableException.class, () -> commits.apply(ride("{a}", 4)));
        assertEquals(UnavailableCause.STORE_OVERLOADED, e.unavailableCause(), e.getMessage());
        stuck.countDown();
        for (Future<RideOutcome> f : waiting) {
            assertEquals(RideOutcome.STORED, f.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void submitReturnsAtOnceAndItsFutureCompletesOnlyOnceTheBatchIsApplied() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    await(release);
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        CompletableFuture<RideOutcome> outcome = commits.submit(ride("{a}", 1));
        Thread.sleep(50);
        assertFalse(outcome.isDone(), "not answered while the batch is not applied");
        assertEquals(1, commits.pending(), "the drain sees the ride in flight");
        release.countDown();
        assertEquals(RideOutcome.STORED, outcome.get(5, TimeUnit.SECONDS));
        while (commits.pending() > 0) {
            Thread.sleep(1);
        }
    }

    @Test
    void aSubmittedRideNotSentInTimeFailsWithNoThreadWaitingAndIsNeverSent() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        List<Integer> sentSkiers = Collections.synchronizedList(new ArrayList<>());
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    rides.forEach(r -> sentSkiers.add(r.skier));
                    if (rides.get(0).skier == 1) {
                        await(stuck);
                    }
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofMillis(300),
                Duration.ofSeconds(10));
        CompletableFuture<RideOutcome> hung = commits.submit(ride("{a}", 1));
        while (sentSkiers.isEmpty()) {
            Thread.sleep(1);
        }
        long start = System.nanoTime();
        CompletableFuture<RideOutcome> late = commits.submit(ride("{a}", 2));
        ExecutionException e = assertThrows(ExecutionException.class, () -> late.get(5, TimeUnit.SECONDS));
        long failedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(UnavailableCause.STORE_QUEUE_TIMEOUT, causeOf(e));
        assertTrue(
                failedAfterMillis >= 250 && failedAfterMillis < 2_000,
                "failed after the request timeout: " + failedAfterMillis);
        assertEquals(0, commits.queued(), "the watchdog took the abandoned ride out of the queue");
        stuck.countDown();
        assertEquals(RideOutcome.STORED, hung.get(5, TimeUnit.SECONDS));
        assertEquals(RideOutcome.STORED, commits.apply(ride("{a}", 3)));
        assertEquals(List.of(1, 3), sentSkiers, "ride 2 failed before it was sent, so it never was");
    }

    @Test
    void aSubmittedRideWhoseBatchHangsFailsOnlyAfterTheBatchDeadline() throws Exception {
        AtomicLong deadlineNanos = new AtomicLong(Long.MAX_VALUE);
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    deadlineNanos.set(deadline);
                    await(new CountDownLatch(1)); // hangs until the committer is interrupted at close
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofMillis(200),
                Duration.ofMillis(300));
        CompletableFuture<RideOutcome> outcome = commits.submit(ride("{a}", 1));
        ExecutionException e = assertThrows(ExecutionException.class, () -> outcome.get(5, TimeUnit.SECONDS));
        long failedAtNanos = System.nanoTime();
        assertEquals(UnavailableCause.STORE_UNREACHABLE, causeOf(e), "sent, and not confirmed in time");
        assertTrue(failedAtNanos > deadlineNanos.get(), "a 503 only once the store may no longer apply the batch");
    }

    @Test
    void refusesAsShuttingDownOnceClosed() {
        commits = new GroupCommit(
                (tag, rides, deadline) -> allStored(rides), 1, 64, 100, Duration.ofSeconds(1), Duration.ofSeconds(1));
        commits.close();
        StoreUnavailableException e =
                assertThrows(StoreUnavailableException.class, () -> commits.submit(ride("{a}", 1)));
        assertEquals(UnavailableCause.SHUTTING_DOWN, e.unavailableCause());
    }

    private static UnavailableCause causeOf(ExecutionException e) {
        assertTrue(e.getCause() instanceof StoreUnavailableException, String.valueOf(e.getCause()));
        return ((StoreUnavailableException) e.getCause()).unavailableCause();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Test
    void sendsTheNextBatchWhileAnotherIsStillInFlight() throws Exception {
        CountDownLatch slowBatchRelease = new CountDownLatch(1);
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    if (rides.get(0).skier == 1) {
                        await(slowBatchRelease);
                    }
                    return allStored(rides);
                },
                2,
                64,
                100,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        Future<RideOutcome> slow = requests.submit(() -> commits.apply(ride("{a}", 1)));
        while (commits.queued() > 0) {
            Thread.sleep(1);
        }
        Thread.sleep(50); // the first committer now waits on the slow batch
        assertEquals(RideOutcome.STORED, commits.apply(ride("{a}", 2)), "the second committer sent it meanwhile");
        assertTrue(!slow.isDone());
        slowBatchRelease.countDown();
        assertEquals(RideOutcome.STORED, slow.get(5, TimeUnit.SECONDS));
    }

    @Test
    void neverAppliesALaterTagsBatchAfterItsRequestWasAnsweredUnavailable() throws Exception {
        long batchTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(300);
        CountDownLatch firstEntered = new CountDownLatch(1);
        CountDownLatch queuedBehind = new CountDownLatch(1);
        List<Long> appliedAtNanos = Collections.synchronizedList(new ArrayList<>());
        commits = new GroupCommit(
                (tag, rides, deadline) -> {
                    if (tag.equals("{first}")) {
                        firstEntered.countDown();
                        await(queuedBehind);
                        return allStored(rides);
                    }
                    if (tag.startsWith("{slow")) {
                        sleepNanos(batchTimeoutNanos); // a store at its timeout: each slow tag takes all of it
                        throw new IllegalStateException("timed out");
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("DEADLINE"); // as the Redis function refuses it
                    }
                    appliedAtNanos.add(System.nanoTime());
                    return allStored(rides);
                },
                1,
                64,
                100,
                Duration.ofMillis(100),
                Duration.ofNanos(batchTimeoutNanos));
        Future<RideOutcome> first = requests.submit(() -> commits.apply(ride("{first}", 0)));
        assertTrue(firstEntered.await(5, TimeUnit.SECONDS));
        List<Future<RideOutcome>> slow = new ArrayList<>();
        for (int i = 1; i <= 3; i++) { // one taken batch: three slow tags, then the late one
            String tag = "{slow" + i + "}";
            slow.add(requests.submit(() -> commits.apply(ride(tag, 1))));
            while (commits.queued() < i) {
                Thread.sleep(1);
            }
        }
        Future<Long> late = requests.submit(() -> {
            try {
                commits.apply(ride("{late}", 2));
                return -1L; // stored: fine whenever it was applied
            } catch (StoreUnavailableException e) {
                return System.nanoTime();
            }
        });
        while (commits.queued() < 4) {
            Thread.sleep(1);
        }
        queuedBehind.countDown();
        assertEquals(RideOutcome.STORED, first.get(5, TimeUnit.SECONDS));
        long answeredUnavailableAt = late.get(10, TimeUnit.SECONDS);
        for (Future<RideOutcome> f : slow) {
            assertThrows(Exception.class, () -> f.get(5, TimeUnit.SECONDS));
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(4 * batchTimeoutNanos)); // the committer gets to the late tag
        assertTrue(answeredUnavailableAt > 0, "the late ride waited behind 900 ms of slow batches: 503");
        assertEquals(List.of(), appliedAtNanos, "the late ride was answered 503, so it must never be applied");
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
