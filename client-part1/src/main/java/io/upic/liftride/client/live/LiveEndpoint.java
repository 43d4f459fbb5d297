package io.upic.liftride.client.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * {@code --metrics-port}: serves {@link LiveMetrics} at {@code /metrics} in the Prometheus text format on one thread
 * of its own (the JDK's HTTP server), from {@link #open} until {@link #close}. GET and HEAD only. Thread-safe.
 */
public final class LiveEndpoint implements AutoCloseable {

    /** Where the metrics are served. */
    public static final String PATH = "/metrics";

    /** The longest {@link #awaitFinalScrape} waits. */
    static final long MAX_FINAL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(15);

    private static final PrometheusTextFormatWriter FORMAT = PrometheusTextFormatWriter.create();

    private final HttpServer server;
    private final LiveMetrics metrics;
    private final Object scraped = new Object();
    /** When the last two scrapes started; 0 for none. Guarded by {@code scraped}. */
    private long lastScrapeNanos, previousScrapeNanos;

    private LiveEndpoint(HttpServer server, LiveMetrics metrics) {
        this.server = server;
        this.metrics = metrics;
    }

    /**
     * Listens on {@code address} and serves {@code metrics}.
     *
     * @throws IOException when the address cannot be bound (in use, not this machine's)
     */
    public static LiveEndpoint open(MetricsAddress address, LiveMetrics metrics) throws IOException {
        HttpServer server = HttpServer.create(address.socketAddress(), 16);
        LiveEndpoint endpoint = new LiveEndpoint(server, metrics);
        server.createContext(PATH, endpoint::serve);
        server.start();
        return endpoint;
    }

    /** The port it listens on (the one chosen when the address asked for 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            long start = System.nanoTime();
            ByteArrayOutputStream text = new ByteArrayOutputStream(16_384);
            FORMAT.write(text, metrics.snapshots());
            exchange.getResponseHeaders().set("Content-Type", FORMAT.getContentType());
            boolean head = method.equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : text.size());
            if (!head) {
                text.writeTo(exchange.getResponseBody()); // closed with the exchange
            }
            synchronized (scraped) {
                previousScrapeNanos = lastScrapeNanos;
                lastScrapeNanos = start;
                scraped.notifyAll();
            }
        }
    }

    /**
     * Waits until a scrape that started after this call has been answered (bounded by two scrape intervals and
     * {@link #MAX_FINAL_WAIT_NANOS}; not at all without scrapes); returns whether one came.
     */
    public boolean awaitFinalScrape() throws InterruptedException {
        long from = System.nanoTime();
        synchronized (scraped) {
            if (lastScrapeNanos == 0) {
                return false;
            }
            long interval = previousScrapeNanos == 0 ? MAX_FINAL_WAIT_NANOS : lastScrapeNanos - previousScrapeNanos;
            long deadline = from + Math.min(MAX_FINAL_WAIT_NANOS, 2 * interval);
            for (long left; lastScrapeNanos - from < 0 && (left = deadline - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(scraped, left);
            }
            return lastScrapeNanos - from >= 0;
        }
    }

    /** Stops listening and closes every connection at once, rather than waiting out the JDK server's grace period. */
    @Override
    public void close() {
        server.stop(0);
    }
}
