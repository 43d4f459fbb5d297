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
 * The {@code sdk} transport: per worker an OkHttp 4 client derived from the run's, with a connection pool and a
 * dispatcher of its own ({@link WorkerPool}), under an {@link ApiClient} of its own ({@link RideApiClient}, with the
 * URLs of the run's paths shared in {@link PathUrls}). Thread-safe.
 *
 * <p>One connection per worker, kept alive between its requests; a worker's is closed when the worker ends, and
 * any left when the factory closes. Unlike one shared pool, no connection outlives its worker: the workers of each
 * run open their own, inside the run's clock, one connect each (a round trip through a slow network).
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    private final HttpSettings settings;
    private final OkHttpClient http;
    private final PathUrls urls;
    /** The pools of the senders not closed yet. */
    private final Set<WorkerPool> open = ConcurrentHashMap.newKeySet();

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = new OkHttpClient.Builder()
                .connectionPool(WorkerPool.threadlessPool()) // never used for a call: no cleanup thread either
                .connectTimeout(settings.connectTimeoutMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(settings.readTimeoutMillis(), TimeUnit.MILLISECONDS)
                .callTimeout(settings.callTimeoutMillis(), TimeUnit.MILLISECONDS)
                // OkHttp would otherwise resend a POST on a failed pooled connection without telling us, so the
                // server could store a ride the client never counted
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .followSslRedirects(false)
                .build();
        this.urls = new PathUrls(settings.baseUrl());
    }

    @Override
    public RideSender create() {
        WorkerPool pool = new WorkerPool(http, open::remove);
        open.add(pool);
        ApiClient api = new RideApiClient(urls);
        api.setHttpClient(pool.httpClient());
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api, pool::close);
    }

    /** Connections in the pools of the senders not closed yet, idle or in use (tests). */
    int connectionCount() {
        return open.stream().mapToInt(WorkerPool::connectionCount).sum();
    }

    /**
     * Closes the idle connections of the senders not closed yet. No OkHttp thread is left: the workers' pools
     * start none ({@link WorkerPool}), and the dispatchers start theirs only for asynchronous calls, which the
     * senders never make.
     */
    @Override
    public void close() {
        for (WorkerPool pool : open) {
            pool.close();
        }
    }
}
