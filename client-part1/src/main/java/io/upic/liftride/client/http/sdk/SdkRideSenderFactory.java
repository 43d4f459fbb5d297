package io.upic.liftride.client.http.sdk;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.sdk.ApiClient;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * The {@code sdk} transport: one OkHttp 4 client configured for the run, and per worker a client
 * derived from it with {@link OkHttpClient#newBuilder()} that has its own small connection pool and
 * dispatcher, under its own {@link ApiClient}; one watchdog thread bounds each whole call
 * ({@link CallDeadlines}). Thread-safe.
 *
 * <p>Why per worker: a worker sends one request at a time, so it needs one connection; a pool shared
 * by 64 workers makes every call search 64 connections, locking each, and a shared dispatcher puts
 * every call twice through one monitor (data/bench.md has the profile). Derived clients share
 * everything else (settings, interceptors, the task runner that cleans pools). The connections
 * made are the same: one per worker, kept alive between its requests.
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    /**
     * Idle connections a worker's pool keeps, for 5 minutes (OkHttp's default keep-alive would close
     * them in a sweep's pause between runs): its one, and one more while a broken one is replaced.
     */
    static final int WORKER_IDLE_CONNECTIONS = 2;

    private final HttpSettings settings;
    private final OkHttpClient http;
    private final Queue<OkHttpClient> workerClients = new ConcurrentLinkedQueue<>();
    private final CallDeadlines deadlines;

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = newHttpClient(settings);
        this.deadlines = new CallDeadlines(settings.callTimeoutMillis(), "LiftRide SDK call deadlines");
    }

    /**
     * The run's client, which workers' clients derive from: a timeout on each connect, read and
     * write (the whole call's deadline is {@link CallDeadlines}'), and no silent retries: OkHttp
     * would otherwise resend a POST on a failed pooled connection without telling us, so the server
     * could store a ride the client never counted.
     */
    static OkHttpClient newHttpClient(HttpSettings s) {
        return new OkHttpClient.Builder()
                .connectTimeout(s.connectTimeoutMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(s.readTimeoutMillis(), TimeUnit.MILLISECONDS)
                .writeTimeout(s.readTimeoutMillis(), TimeUnit.MILLISECONDS)
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .followSslRedirects(false)
                .build();
    }

    @Override
    public RideSender create() {
        OkHttpClient own = http.newBuilder()
                .connectionPool(new ConnectionPool(WORKER_IDLE_CONNECTIONS, 5, TimeUnit.MINUTES))
                .dispatcher(new Dispatcher())
                .build();
        workerClients.add(own);
        ApiClient api = new DeadlineApiClient(deadlines.newSlot());
        api.setHttpClient(own);
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api, own.connectionPool());
    }

    /** The run's client that workers' clients derive from (tests inspect it). */
    OkHttpClient httpClient() {
        return http;
    }

    /** Connections open in every worker's pool, idle or in use (tests). */
    int connectionCount() {
        return workerClients.stream()
                .mapToInt(c -> c.connectionPool().connectionCount())
                .sum();
    }

    /**
     * Stops the deadline watchdog and closes the pooled connections of every worker, closed or not.
     * OkHttp 4 keeps no thread per client: its pools are cleaned by the process-wide "OkHttp
     * TaskRunner" threads, which end by themselves after 60 s idle.
     */
    @Override
    public void close() {
        deadlines.close();
        for (OkHttpClient c : workerClients) {
            c.connectionPool().evictAll();
        }
        http.connectionPool().evictAll();
    }
}
