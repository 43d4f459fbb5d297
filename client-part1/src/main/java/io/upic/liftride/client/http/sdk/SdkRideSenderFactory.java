package io.upic.liftride.client.http.sdk;

import com.squareup.okhttp.ConnectionPool;
import com.squareup.okhttp.OkHttpClient;
import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.sdk.ApiClient;
import java.util.concurrent.TimeUnit;

/**
 * The {@code sdk} transport: one OkHttp 2.7.5 client shared by the whole run, and an
 * {@link ApiClient} per worker on top of it. Thread-safe.
 */
public final class SdkRideSenderFactory implements RideSenderFactory {

    /** A connection read from within this long skips OkHttp's 1 ms wait (see {@link QuickProbeSocketFactory}). */
    static final long QUICK_PROBE_RECENT_NANOS = 1_000_000_000L;

    private final HttpSettings settings;
    private final OkHttpClient http;

    public SdkRideSenderFactory(HttpSettings settings) {
        this.settings = settings;
        this.http = newHttpClient(settings);
    }

    /**
     * The shared client: a pool that keeps one idle connection per worker (OkHttp's default of 5
     * would close and reopen connections all run long), timeouts on every attempt, and no silent
     * retries: OkHttp 2 would otherwise resend a POST on a failed pooled connection without telling
     * us, so the server could store a ride the client never counted.
     */
    static OkHttpClient newHttpClient(HttpSettings s) {
        OkHttpClient c = new OkHttpClient();
        c.setConnectionPool(new ConnectionPool(Math.max(5, s.maxConnections()), 5, TimeUnit.MINUTES));
        c.setConnectTimeout(s.connectTimeoutMillis(), TimeUnit.MILLISECONDS);
        c.setReadTimeout(s.readTimeoutMillis(), TimeUnit.MILLISECONDS);
        c.setWriteTimeout(s.readTimeoutMillis(), TimeUnit.MILLISECONDS);
        c.setRetryOnConnectionFailure(false);
        c.setFollowRedirects(false);
        c.setFollowSslRedirects(false);
        if (s.readTimeoutMillis() > 1
                && !Boolean.getBoolean(
                        "liftride.noQuickProbe")) { // with a 1 ms read timeout every read would look like the probe
            c.setSocketFactory(new QuickProbeSocketFactory(QUICK_PROBE_RECENT_NANOS));
        }
        return c;
    }

    @Override
    public RideSender create() {
        ApiClient api = new ApiClient();
        api.setHttpClient(http);
        api.setBasePath(settings.baseUrl());
        return new SdkRideSender(api);
    }

    /** The shared OkHttp client (tests inspect its pool). */
    public OkHttpClient httpClient() {
        return http;
    }

    /** Closes the pooled connections and ends OkHttp's pool thread (see {@link OkHttpPools}). */
    @Override
    public void close() {
        OkHttpPools.shutDown(http.getConnectionPool());
    }
}
