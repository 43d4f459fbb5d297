package io.upic.liftride.client.live;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.upic.liftride.client.engine.LiveFigures;
import io.upic.liftride.client.plan.Shard;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The live figures of this process's runs as Prometheus metrics, labelled {@code run_id}, {@code shard}, {@code
 * phase} and {@code op}: what {@code --metrics-port} serves. Read from the workers' own counts when scraped, so the
 * request path pays nothing. A live view, not the account. Thread-safe.
 */
public final class LiveMetrics {

    private static final String LIVE = " (live view; the run's summary is the account)";
    private static final double[] BOUNDS_SECONDS = boundsSeconds();

    private record Run(String runId, String shard, Supplier<List<LiveFigures>> figures) {}

    private final List<Run> runs = new CopyOnWriteArrayList<>();

    /**
     * Adds a run whose {@code figures} later scrapes read; its {@code run_id} is {@code ownId}, or with {@code
     * --start-at} one every shard of the run computes alike.
     */
    public synchronized void watch(String ownId, Instant startAt, Shard shard, Supplier<List<LiveFigures>> figures) {
        String runId = startAt == null ? Objects.requireNonNull(ownId, "ownId") : startAt + "/" + (runs.size() + 1);
        runs.add(new Run(runId, shard.index() + "/" + shard.count(), Objects.requireNonNull(figures, "figures")));
    }

    /** Every watched run's figures now. */
    public MetricSnapshots snapshots() {
        CounterSnapshot.Builder sent = counter("liftride_client_requests_sent", "requests whose first attempt started");
        CounterSnapshot.Builder ok =
                counter("liftride_client_requests_successful", "requests answered their expected status");
        CounterSnapshot.Builder failed = counter(
                "liftride_client_requests_failed",
                "requests that ended without their expected status after their retries, by cause of the last attempt");
        CounterSnapshot.Builder retries = counter("liftride_client_retries", "attempts after a request's first");
        GaugeSnapshot.Builder inFlight = GaugeSnapshot.builder()
                .name("liftride_client_requests_in_flight")
                .help("requests sent and not ended (retries and backoffs included)" + LIVE);
        HistogramSnapshot.Builder latency = HistogramSnapshot.builder()
                .name("liftride_client_request_latency_seconds")
                .help("ended requests' latency from their intended send time (the --rate schedule, else the first"
                        + " attempt's start) to their last attempt's end" + LIVE);
        for (Run run : runs) {
            for (LiveFigures f : run.figures().get()) {
                Labels labels = Labels.of(
                        "run_id",
                        run.runId(),
                        "shard",
                        run.shard(),
                        "phase",
                        f.phase(),
                        "op",
                        f.operation().operationId());
                sent.dataPoint(count(labels, f.sent()));
                ok.dataPoint(count(labels, f.successful()));
                retries.dataPoint(count(labels, f.retries()));
                for (LiveFigures.Cause cause : LiveFigures.Cause.values()) {
                    failed.dataPoint(count(labels.add("cause", cause.label()), f.failed(cause)));
                }
                inFlight.dataPoint(GaugeDataPointSnapshot.builder()
                        .labels(labels)
                        .value(f.inFlight())
                        .build());
                latency.dataPoint(HistogramDataPointSnapshot.builder()
                        .labels(labels)
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS_SECONDS, f.latencyBuckets()))
                        .sum(f.latencyNanosSum() / 1e9)
                        .build());
            }
        }
        return new MetricSnapshots(
                sent.build(), ok.build(), failed.build(), retries.build(), inFlight.build(), latency.build());
    }

    private static CounterSnapshot.Builder counter(String name, String help) {
        return CounterSnapshot.builder().name(name).help(help + LIVE);
    }

    private static CounterDataPointSnapshot count(Labels labels, long value) {
        return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static double[] boundsSeconds() {
        long[] nanos = LiveFigures.LATENCY_BOUNDS_NANOS;
        double[] seconds =
                Arrays.copyOf(Arrays.stream(nanos).mapToDouble(n -> n / 1e9).toArray(), nanos.length + 1);
        seconds[nanos.length] = Double.POSITIVE_INFINITY;
        return seconds;
    }
}
