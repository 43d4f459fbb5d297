package io.upic.liftride.client.prediction;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * D, the CPU per request the model takes for each run of one invocation: for the first run the warm-up's, or the
 * stored one plus a cold JVM's extra, or the baseline's rough cold D; for later runs the stored D, else the
 * previous run's CPU per attempt less its JIT threads'. Not thread-safe: one runner uses it.
 */
public final class CpuDemand {
    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);

    private final double coldNanos;
    private final CalibrationStore.Entry stored;
    private final WarmUp.Result warmUp;
    private double firstNanos = Double.NaN;
    private long firstRequests;
    private double lastNanos = Double.NaN;
    private double lastLessJitNanos = Double.NaN;
    private String lastRun;
    private int runs;

    /** For an invocation with {@code baseline}, and {@code stored} or {@code warmUp} when not null. */
    public CpuDemand(Baseline.Result baseline, CalibrationStore.Entry stored, WarmUp.Result warmUp) {
        this.coldNanos = baseline.coldCpuNanosPerRequest();
        this.stored = stored;
        this.warmUp = warmUp;
    }

    /** D for the next run, of {@code requests} requests, in nanoseconds; NaN when unknown. */
    public double nanosFor(long requests) {
        if (runs > 0) {
            return stored != null ? stored.demandNanos() : lastLessJitNanos;
        }
        if (warmUp != null) {
            return warmUp.demandNanos();
        }
        if (stored == null) {
            return coldNanos;
        }
        double first = stored.demandNanos() + stored.coldExtraCpuNanos() / Math.max(1, requests);
        return coldNanos > 0 ? Math.min(coldNanos, first) : first;
    }

    /** Where {@link #nanosFor} comes from, for the labels. */
    public String source() {
        String when = stored == null ? null : MINUTE.format(stored.measuredAt());
        if (runs > 0) {
            boolean warming = runs == 1 && (warmUp == null || !warmUp.settled());
            return stored != null
                    ? "stored " + when
                    : "measured in run " + lastRun + (warming ? " on a warming JVM" : "");
        }
        if (warmUp != null) {
            return "measured in the warm-up";
        }
        return stored != null ? "stored " + when + ", cold JVM" : "the baseline's, cold: rough";
    }

    /**
     * Takes in a finished run: {@code name} (such as "-t 32"), its HTTP attempts, this process's CPU and its JIT
     * compiler threads' over the run (CPU -1: unknown, learns nothing).
     */
    public void learn(String name, long attempts, long cpuNanos, long jitNanos) {
        if (attempts <= 0 || cpuNanos < 0) {
            return;
        }
        lastNanos = (double) cpuNanos / attempts;
        if (runs == 0) {
            firstNanos = lastNanos;
            firstRequests = attempts;
        }
        lastLessJitNanos = (double) Math.max(0, cpuNanos - jitNanos) / attempts;
        lastRun = name;
        runs++;
    }

    /**
     * What to store for later invocations, with the last run's D: after a complete warm-up, the warm-up's extra CPU;
     * after a stored entry and two runs or more, the cold first run's extra CPU over that D; empty otherwise.
     */
    public Optional<CalibrationStore.Entry> toStore(Instant now) {
        if (runs >= 1 && warmUp != null && warmUp.complete()) {
            return Optional.of(new CalibrationStore.Entry(lastNanos, warmUp.extraCpuNanos(), now));
        }
        if (runs >= 2 && stored != null) {
            return Optional.of(
                    new CalibrationStore.Entry(lastNanos, Math.max(0, firstNanos - lastNanos) * firstRequests, now));
        }
        return Optional.empty();
    }

    /** The model's network for the next run of {@code requests}: C cores, D, Z = W - D; null when D is unknown. */
    public Prediction.Network network(long requests, double latencyNanos, int cores, CpuScope scope) {
        double d = nanosFor(requests);
        if (!(d > 0) || !(latencyNanos > 0)) {
            return null;
        }
        return new Prediction.Network(cores, d, Math.max(0, latencyNanos - d), scope, source());
    }
}
