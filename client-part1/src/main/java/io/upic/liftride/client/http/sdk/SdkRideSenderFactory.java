package io.upic.liftride.client.http.sdk;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.sdk.ApiClient;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * The {@code sdk} transport: one OkHttp 4 client (one connection pool) shared by every worker of a
 * run, an {@link ApiClient} per worker on top of it ({@link RideApiClient}, with the URLs of the run's
 * paths shared in {@link PathUrls}), and one watchdog thread that bounds each whole call ({@link
 * CallDeadlines}). Thread-safe.
 *
 * <p>Why one shared pool: issue 21 tried a pool and a dispatcher per worker (clients derived with
 * {@link OkHttpClient#newBuilder()}), to spare each call the shared pool's locked search of 64
 * connections. Measured with bench.py on one host, quiet, 5 rounds each on fresh JVMs, it cost
 * more, not less: 45 us of client CPU per request against 40 us with this shared pool (SDK/wrk 0.31
 * against 0.35), so it was taken out again (data/bench.md).
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    private final HttpSettings settings;
    private final OkHttpClient http;
    private final CallDeadlines deadlines;
    private final PathUrls urls;

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = newHttpClient(settings);
        this.deadlines = new CallDeadlines(settings.callTimeoutMillis(), "LiftRide SDK call deadlines");
        this.urls = new PathUrls(settings.baseUrl());
    }

    /**
     * The run's client: a pool that keeps an idle connection per worker for 5 minutes (OkHttp's
     * default of 5 would close and reopen connections all run long, and the pause between a sweep's
     * runs must not empty it), a timeout on each connect and each read (the read timeout is the sockets',
     * {@link ReadTimeoutSockets} says why; a write is bounded by the whole call's deadline, {@link
     * CallDeadlines}'), and no silent retries: OkHttp would otherwise resend a POST on a
     * failed pooled connection without telling us, so the server could store a ride the client never
     * counted.
     */
    static OkHttpClient newHttpClient(HttpSettings s) {
        return new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(Math.max(5, s.maxConnections()), 5, TimeUnit.MINUTES))
                .connectTimeout(s.connectTimeoutMillis(), TimeUnit.MILLISECONDS)
                .socketFactory(new ReadTimeoutSockets(s.readTimeoutMillis()))
                .readTimeout(0, TimeUnit.MILLISECONDS)
                .writeTimeout(0, TimeUnit.MILLISECONDS)
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .followSslRedirects(false)
                .build();
    }

    @Override
    public RideSender create() {
        ApiClient api = new RideApiClient(deadlines.newSlot(), urls);
        api.setHttpClient(http);
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api);
    }

    /** The run's shared client (tests inspect its pool). */
    OkHttpClient httpClient() {
        return http;
    }

    /**
     * Stops the deadline watchdog and closes the pooled connections. OkHttp 4 keeps no thread per
     * client: its pool is cleaned by the process-wide "OkHttp TaskRunner" threads, which end by
     * themselves after 60 s idle.
     */
    @Override
    public void close() {
        deadlines.close();
        http.connectionPool().evictAll();
    }
}
