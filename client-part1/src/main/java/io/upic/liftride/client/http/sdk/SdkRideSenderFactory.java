package io.upic.liftride.client.http.sdk;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.sdk.ApiClient;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/**
 * The {@code sdk} transport: per worker an OkHttp 4 client derived from the run's, with its own small
 * connection pool and dispatcher ({@link WorkerPool}), under an {@link ApiClient} of its own ({@link
 * RideApiClient}, with the URLs of the run's paths shared in {@link PathUrls}), and one watchdog thread
 * that bounds each whole call ({@link CallDeadlines}). Thread-safe.
 *
 * <p>One connection per worker, kept alive between its requests; a worker's is closed when the worker ends,
 * and any left when the factory closes. Unlike one shared pool, no connection outlives its worker: the
 * workers of each run open their own, inside the run's clock, one connect
 * each (a round trip through a slow network).
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    private final HttpSettings settings;
    private final OkHttpClient http;
    private final CallDeadlines deadlines;
    private final PathUrls urls;
    /** The pools of the senders not closed yet. */
    private final Set<WorkerPool> open = ConcurrentHashMap.newKeySet();

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = newHttpClient(settings);
        this.deadlines = new CallDeadlines(settings.callTimeoutMillis(), "LiftRide SDK call deadlines");
        this.urls = new PathUrls(settings.baseUrl());
    }

    /**
     * The run's client, which each worker's derives from: a timeout on each connect and each read (the read
     * timeout is the sockets', {@link ReadTimeoutSockets} says why; a write is bounded by the whole call's
     * deadline, {@link CallDeadlines}'), and no silent retries: OkHttp would otherwise resend a POST on a
     * failed pooled connection without telling us, so the server could store a ride the client never
     * counted. Its own pool, never used for a call, runs no cleanup thread either.
     */
    static OkHttpClient newHttpClient(HttpSettings s) {
        return new OkHttpClient.Builder()
                .connectionPool(WorkerPool.threadlessPool())
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
        WorkerPool pool = new WorkerPool(http, open::remove);
        open.add(pool);
        CallDeadlines.Slot slot = deadlines.newSlot();
        ApiClient api = new RideApiClient(slot, urls);
        api.setHttpClient(pool.httpClient());
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api, () -> {
            pool.close();
            deadlines.remove(slot);
        });
    }

    /** The run's client, which workers' clients derive from (tests inspect it). */
    OkHttpClient httpClient() {
        return http;
    }

    /** Connections in the pools of the senders not closed yet, idle or in use (tests). */
    int connectionCount() {
        return open.stream().mapToInt(WorkerPool::connectionCount).sum();
    }

    /**
     * Stops the deadline watchdog and closes the idle connections of the senders not closed yet. No OkHttp
     * thread is left: the workers' pools start none ({@link WorkerPool}), and the dispatchers start theirs
     * only for asynchronous calls, which the senders never make.
     */
    @Override
    public void close() {
        deadlines.close();
        for (WorkerPool pool : open) {
            pool.close();
        }
    }
}
