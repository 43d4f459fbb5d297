import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.sdk.SdkRideSenderFactory;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

/**
 * One SDK sender on one thread against BASE_URL: WARM lift-ride POSTs, then N measured ones; prints the
 * sending thread's CPU, the process's CPU and the thread's allocated bytes per request, and the mean wall
 * time. Run by bench/sdk_path.py with a client-part1.jar on the class path (java's source launcher):
 * java -cp client-part1.jar bench/SdkProbe.java BASE_URL WARM N
 */
public class SdkProbe {
    public static void main(String[] args) throws Exception {
        String base = args[0];
        int warm = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        SplittableRandom random = new SplittableRandom(42);
        try (SdkRideSenderFactory factory = new SdkRideSenderFactory(new HttpSettings(base, 5_000, 10_000, 4));
                RideSender sender = factory.create()) {
            for (int i = 0; i < warm + n; i++) {
                if (i == warm) {
                    long[] start = {threads.getCurrentThreadCpuTime(), os.getProcessCpuTime(),
                        threads.getCurrentThreadAllocatedBytes(), System.nanoTime()};
                    for (int j = 0; j < n; j++) {
                        send(sender, random, "m-" + j);
                    }
                    System.out.printf("thread_cpu_us %.2f process_cpu_us %.2f alloc_bytes %.0f wall_us %.1f%n",
                            (threads.getCurrentThreadCpuTime() - start[0]) / 1e3 / n,
                            (os.getProcessCpuTime() - start[1]) / 1e3 / n,
                            (double) (threads.getCurrentThreadAllocatedBytes() - start[2]) / n,
                            (System.nanoTime() - start[3]) / 1e3 / n);
                    return;
                }
                send(sender, random, "w-" + i);
            }
        }
    }

    /** A ride as a worker of a 64-thread run sends them: a skier among 5,000, random lift, minute, wait. */
    private static void send(RideSender sender, SplittableRandom random, String key) throws Exception {
        int code = sender.send(1, 2022, 1, random.nextInt(1, 5001), random.nextInt(1, 41), random.nextInt(1, 361),
                random.nextInt(0, 11), key);
        if (code != 201) {
            throw new IllegalStateException("status " + code);
        }
    }
}
