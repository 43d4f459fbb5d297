package io.upic.liftride.client;

import io.upic.liftride.client.engine.AttemptListener;
import io.upic.liftride.client.engine.AttemptRecorder;
import io.upic.liftride.client.plan.ThreadAssignment;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every attempt's status (negative: a transport error) counted, latching on the first attempt and on a target
 * number of attempts, so a fault test can strike mid-run. Thread-safe: every worker records into it.
 */
final class AttemptStatuses implements AttemptListener {
    private final Map<Integer, LongAdder> counts = new ConcurrentHashMap<>();
    private final CountDownLatch target;
    private final CountDownLatch started = new CountDownLatch(1);
    private final AtomicLong first = new AtomicLong();

    /** Counts statuses; {@link #await} waits for {@code target} attempts. */
    AttemptStatuses(int target) {
        this.target = new CountDownLatch(target);
    }

    @Override
    public AttemptRecorder recorder(ThreadAssignment work) {
        return (epochMillis, startNanos, latencyNanos, code, attemptNumber) -> {
            counts.computeIfAbsent(code, c -> new LongAdder()).increment();
            target.countDown();
            if (first.get() == 0 && first.compareAndSet(0, startNanos)) {
                started.countDown();
            }
        };
    }

    /** Waits for the first attempt (2 min at most), then for the target's attempts or {@code seconds} after it. */
    boolean await(long seconds) throws InterruptedException {
        if (!started.await(2, TimeUnit.MINUTES)) {
            return false;
        }
        target.await(first.get() + TimeUnit.SECONDS.toNanos(seconds) - System.nanoTime(), TimeUnit.NANOSECONDS);
        return true;
    }

    /** The first attempt's start ({@link System#nanoTime()}), 0 before it. */
    long first() {
        return first.get();
    }

    long count(int code) {
        LongAdder n = counts.get(code);
        return n == null ? 0 : n.sum();
    }

    /** The counts by status, sorted. */
    Map<Integer, Long> counts() {
        Map<Integer, Long> sorted = new TreeMap<>();
        counts.forEach((code, n) -> sorted.put(code, n.sum()));
        return sorted;
    }

    @Override
    public String toString() {
        return counts().toString();
    }
}
