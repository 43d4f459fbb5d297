import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.sdk.SdkRideSenderFactory;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SDK senders on THREADS threads (1 unless given) against BASE_URL, each sending WARM lift-ride POSTs, then, once
 * every thread is warm, N measured ones; prints per measured request the sending threads' CPU, the process's CPU,
 * the bytes the sending threads allocate and the wall time per request of one thread. Run by bench/sdk_path.py
 * with a client-part1.jar on the class path (java's source launcher):
 * java -cp client-part1.jar bench/SdkProbe.java BASE_URL WARM N [THREADS]
 */
public class SdkProbe {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int warm = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        AtomicLong cpuNanos = new AtomicLong();
        AtomicLong allocBytes = new AtomicLong();
        long[] window = new long[2];
        CyclicBarrier warmed = new CyclicBarrier(threads, () -> {
            window[0] = os.getProcessCpuTime();
            window[1] = System.nanoTime();
        });
        try (SdkRideSenderFactory factory = new SdkRideSenderFactory(new HttpSettings(base, 5_000, 10_000, 4))) {
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int seed = t;
                workers[t] = new Thread(() -> {
                    try (RideSender sender = factory.create()) {
                        SplittableRandom random = new SplittableRandom(42 + seed);
                        for (int i = 0; i < warm; i++) {
                            send(sender, random, "w-" + seed + "-" + i);
                        }
                        warmed.await();
                        long cpu = THREADS.getCurrentThreadCpuTime();
                        long alloc = THREADS.getCurrentThreadAllocatedBytes();
                        for (int j = 0; j < n; j++) {
                            send(sender, random, "m-" + seed + "-" + j);
                        }
                        cpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu);
                        allocBytes.addAndGet(THREADS.getCurrentThreadAllocatedBytes() - alloc);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                workers[t].start();
            }
            for (Thread w : workers) {
                w.join();
            }
            long requests = (long) n * threads;
            System.out.printf(
                    "thread_cpu_us %.2f process_cpu_us %.2f alloc_bytes %.0f wall_us %.1f%n",
                    cpuNanos.get() / 1e3 / requests,
                    (os.getProcessCpuTime() - window[0]) / 1e3 / requests,
                    (double) allocBytes.get() / requests,
                    (System.nanoTime() - window[1]) / 1e3 / n);
        }
    }

    /** A ride as a worker of a 64-thread run sends them: a skier among 5,000, random lift, minute, wait. */
    private static void send(RideSender sender, SplittableRandom random, String key) throws Exception {
        int code = sender.send(
                1,
                2022,
                1,
                random.nextInt(1, 5001),
                random.nextInt(1, 41),
                random.nextInt(1, 361),
                random.nextInt(0, 11),
                key);
        if (code != 201) {
            throw new IllegalStateException("status " + code);
        }
    }
}
