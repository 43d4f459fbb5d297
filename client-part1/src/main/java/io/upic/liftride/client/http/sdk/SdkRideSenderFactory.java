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
 * The {@code sdk} transport: per worker an OkHttp client with its own pool and dispatcher ({@link WorkerPool})
 * under its own {@link RideApiClient}, and one watchdog thread bounding each call ({@link CallDeadlines}). One
 * connection per worker, closed when the worker ends. Thread-safe.
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
     * The run's client: connect and read timeouts ({@link ReadTimeoutSockets}) and no silent retries, since
     * OkHttp would resend a POST on a failed pooled connection without telling us (a ride stored but not counted).
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

    /** Stops the deadline watchdog and closes the idle connections of the senders not closed yet. */
    @Override
    public void close() {
        deadlines.close();
        for (WorkerPool pool : open) {
            pool.close();
        }
    }
}
