package io.upic.liftride.server.store.redis;

import com.sun.management.OperatingSystemMXBean;
import io.upic.liftride.server.model.LiftRide;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.store.RideOutcome;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import redis.clients.jedis.HostAndPort;

/**
 * What the Redis store costs the JVM per ride without HTTP: 64 threads call it as request threads
 * would, 3 s warm-up, then 6 s measured; prints rides/s, the process's CPU µs per ride and rides per
 * Redis call. {@code handoff COMMITTERS}: the group commit alone, with a sink that applies nothing
 * (the price of handing a ride to a committer and back); {@code redis PORT COMMITTERS}: the whole
 * store against a redis-server on 127.0.0.1:PORT (handoff, Jedis encoding, Redis). A diagnostic, in
 * this package to reach the group commit; never in the WAR.
 *
 * <p>Usage: java -cp "$BENCH_CP" io.upic.liftride.server.store.redis.StoreCostProbe
 * handoff 4 | redis PORT 4
 */
public final class StoreCostProbe {
    private static final int THREADS = 64;

    private StoreCostProbe() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 2 || !(args[0].equals("handoff") || args[0].equals("redis") && args.length == 3)) {
            System.err.println("usage: StoreCostProbe handoff COMMITTERS | redis PORT COMMITTERS");
            System.exit(2);
        }
        int committers = Integer.parseInt(args[args.length - 1]);
        if (args[0].equals("handoff")) {
            LongAdder calls = new LongAdder();
            try (GroupCommit commits = new GroupCommit(
                    (tag, rides, deadline) -> {
                        calls.increment();
                        return Collections.nCopies(rides.size(), RideOutcome.STORED);
                    },
                    committers,
                    128,
                    65_536,
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(1))) {
                measure(
                        "handoff committers=" + committers,
                        calls::sum,
                        seq -> commits.apply(new PendingRide(
                                "{lr:1:2022}", 1, 1 + seq % 20_000, 10, "k" + System.nanoTime(), seq, "")));
            }
            return;
        }
        RedisRideStore.Settings d = RedisRideStore.Settings.DEFAULTS;
        RedisRideStore.Settings settings = new RedisRideStore.Settings(
                d.connectTimeout(),
                d.commandTimeout(),
                d.requestTimeout(),
                d.keyTtl(),
                committers,
                d.maxBatch(),
                d.maxConnections(),
                d.clockMargin());
        try (RedisRideStore store = RedisRideStore.standalone(
                new HostAndPort("127.0.0.1", Integer.parseInt(args[1])), RedisAccess.PLAIN, settings)) {
            measure(
                    "redis committers=" + committers,
                    store::roundTrips,
                    seq -> store.addRide(
                            new SkierDay(1, 2022, 1, 1 + seq % 20_000),
                            new LiftRide(5, 100, 0),
                            "k" + System.nanoTime()));
        }
    }

    private static void measure(String what, LongSupplier calls, IntConsumer ride) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder done = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t * 1_000_000;
            Thread thread = new Thread(() -> {
                for (int seq = first; !stop.get(); seq++) {
                    ride.accept(seq);
                    done.increment();
                }
            });
            thread.start();
            threads.add(thread);
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread.sleep(3_000);
        long cpu0 = os.getProcessCpuTime();
        long rides0 = done.sum();
        long calls0 = calls.getAsLong();
        long t0 = System.nanoTime();
        Thread.sleep(6_000);
        long cpuNanos = os.getProcessCpuTime() - cpu0;
        long rides = done.sum() - rides0;
        long callCount = calls.getAsLong() - calls0;
        long elapsedNanos = System.nanoTime() - t0;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.printf(
                "%s: %.0f rides/s, %.2f CPU us/ride%s, load average %s%n",
                what,
                rides * 1e9 / elapsedNanos,
                cpuNanos / 1e3 / rides,
                callCount > 0 ? String.format(", %.1f rides/call", (double) rides / callCount) : "",
                String.join(" ", loadAverage()));
    }

    private static List<String> loadAverage() {
        try {
            return List.of(Files.readString(Path.of("/proc/loadavg")).split(" "))
                    .subList(0, 3);
        } catch (IOException e) {
            return List.of("?");
        }
    }
}
