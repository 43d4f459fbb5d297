import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Benchmark scaffolding for bench/open_model.py, not product code: how late, and at what CPU, a thread that parks
 * until M µs before each slot of a fixed schedule and spins the rest returns, with no server. The loop is the
 * client's Pacer with its margin as a parameter.
 *
 * <p>Usage: java bench/PacingProbe.java THREADS RATE SECONDS MARGIN_MICROS; prints key=value pairs.
 */
public class PacingProbe {
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        double rate = Double.parseDouble(args[1]);
        int seconds = Integer.parseInt(args[2]);
        long margin = Long.parseLong(args[3]) * 1_000;
        long interval = Math.round(threads * 1e9 / rate);
        int sends = (int) (seconds * 1e9 / interval);
        long[][] late = new long[threads][sends];
        long[] ends = new long[threads];
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread[] ts = new Thread[threads];
        long start = System.nanoTime() + 200_000_000L; // every thread created before the first slot
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                long first = start + interval * id / threads;
                for (int i = 0; i < sends; i++) {
                    long deadline = first + i * interval;
                    long now;
                    while ((now = System.nanoTime()) < deadline) {
                        long left = deadline - now;
                        if (left > margin) {
                            LockSupport.parkNanos(left - margin);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                    late[id][i] = now - deadline;
                }
                ends[id] = System.nanoTime();
            });
        }
        for (Thread t : ts) {
            t.start();
        }
        while (System.nanoTime() < start) {
            Thread.sleep(1);
        }
        long cpu0 = os.getProcessCpuTime();
        for (Thread t : ts) {
            t.join();
        }
        long cpu1 = os.getProcessCpuTime();
        long end = Arrays.stream(ends).max().getAsLong();
        long[] all = Arrays.stream(late).flatMapToLong(Arrays::stream).sorted().toArray();
        int n = all.length;
        double ratio = n / ((end - start) / 1e9) / rate;
        System.out.printf(
                java.util.Locale.ROOT,
                "margin_us=%d ratio=%.5f p50_us=%.1f p99_us=%.1f max_us=%.1f cpu_us=%.2f%n",
                margin / 1000,
                ratio,
                all[n / 2] / 1e3,
                all[(int) (n * 0.99)] / 1e3,
                all[n - 1] / 1e3,
                (cpu1 - cpu0) / 1e3 / n);
    }
}
