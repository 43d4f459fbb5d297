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
 * run, and an {@link ApiClient} per worker on top of it. Thread-safe.
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    private final HttpSettings settings;
    private final OkHttpClient http;

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = newHttpClient(settings, settings.maxConnections());
    }

    /**
     * A client for {@code settings}' server: a pool that keeps up to {@code idleConnections} idle
     * connections for 5 minutes (OkHttp's default of 5 would close and reopen connections all run
     * long, and the pause between a sweep's runs must not empty it), timeouts on every attempt, and
     * no silent retries: OkHttp would otherwise resend a POST on a failed pooled connection without
     * telling us, so the server could store a ride the client never counted.
     */
    static OkHttpClient newHttpClient(HttpSettings s, int idleConnections) {
        return new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(Math.max(5, idleConnections), 5, TimeUnit.MINUTES))
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
        ApiClient api = new ApiClient();
        api.setHttpClient(http);
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api);
    }

    /** The shared OkHttp client (tests inspect its pool). */
    OkHttpClient httpClient() {
        return http;
    }

    /**
     * Closes the pooled connections. OkHttp 4 keeps no thread per client: its pool is cleaned by the
     * process-wide "OkHttp TaskRunner" threads, which end by themselves after 60 s idle.
     */
    @Override
    public void close() {
        http.connectionPool().evictAll();
    }
}
