package io.upic.liftride.client.report;

import io.upic.liftride.client.engine.Baseline;
import io.upic.liftride.client.engine.CalibrationStore;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * D, the CPU per request the model takes for each run of one invocation, learned from the runs themselves. The
 * first run: D stored by an earlier invocation on this machine, server and transport (its last run's, on a warm
 * JVM) plus its first run's extra CPU (a JVM still compiling) spread over this run's requests, at most the
 * baseline's cold D; with nothing stored, the baseline's cold D, which is rough. Each later run: the stored D, else
 * the previous run's CPU per attempt less its JIT compiler threads' (compiled code stays compiled). Not thread-safe:
 * one runner uses it.
 */
public final class CpuDemand {
    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);

    private final double coldNanos;
    private final CalibrationStore.Entry stored;
    private double firstNanos = Double.NaN;
    private long firstRequests;
    private double lastNanos = Double.NaN;
    private double lastLessJitNanos = Double.NaN;
    private String lastRun;
    private int runs;

    /** For an invocation whose baseline measured {@code baseline}, reusing {@code stored} (null: none). */
    public CpuDemand(Baseline.Result baseline, CalibrationStore.Entry stored) {
        this.coldNanos = baseline.coldCpuNanosPerRequest();
        this.stored = stored;
    }

    /** D for the next run, of {@code requests} requests, in nanoseconds; NaN when unknown. */
    public double nanosFor(long requests) {
        if (runs > 0) {
            return stored != null ? stored.demandNanos() : lastLessJitNanos;
        }
        if (stored == null) {
            return coldNanos;
        }
        double first = stored.demandNanos() + stored.firstRunExtraCpuNanos() / Math.max(1, requests);
        return coldNanos > 0 ? Math.min(coldNanos, first) : first;
    }

    /** Where {@link #nanosFor} comes from, for the labels. */
    public String source() {
        String when = stored == null ? null : MINUTE.format(stored.measuredAt());
        if (runs > 0) {
            return stored != null
                    ? "stored " + when
                    : "measured in run " + lastRun + (runs == 1 ? " on a warming JVM" : "");
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
        double d = (double) cpuNanos / attempts;
        if (runs == 0) {
            firstNanos = d;
            firstRequests = attempts;
        }
        lastNanos = d;
        lastLessJitNanos = (double) Math.max(0, cpuNanos - jitNanos) / attempts;
        lastRun = name;
        runs++;
    }

    /**
     * What to store for later invocations once two runs or more were learned: the last run's D and the first run's
     * extra CPU over it; empty before that.
     */
    public Optional<CalibrationStore.Entry> toStore(Instant now) {
        if (runs < 2) {
            return Optional.empty();
        }
        double extra = Math.max(0, firstNanos - lastNanos) * firstRequests;
        return Optional.of(new CalibrationStore.Entry(lastNanos, extra, now));
    }

    /** The model's network for the next run of {@code requests}: C cores, D, Z = W - D; null when D is unknown. */
    public Prediction.Network network(long requests, double latencyNanos, int cores, CpuScope scope) {
        double d = nanosFor(requests);
        if (!(d > 0) || !(latencyNanos > 0)) {
            return null;
        }
        return new Prediction.Network(new ClosedNetwork(cores, d, Math.max(0, latencyNanos - d)), scope, source());
    }
}
