package io.upic.liftride.client.http;

import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.api.StatisticsApi;
import io.upic.liftride.sdk.model.APIStats;
import java.io.IOException;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * Control-plane requests through the generated SDK, whatever the load's transport: the pre-flight check and the
 * server's stored-ride count. Thread-safe (each call builds its own small client).
 */
public final class ServerProbe {

    private ServerProbe() {}

    /**
     * The answer to one {@code GET /statistics}.
     *
     * @param reachable   whether any HTTP answer came back (any status)
     * @param status      the HTTP status, or 0 when unreachable
     * @param failure     why the server is unreachable or has no statistics (its words {@link ServerText} cleaned);
     *                    null when ridesStored is present
     * @param ridesStored the server's count of stored rides, if it reported one that is not negative
     */
    public record Answer(boolean reachable, int status, String failure, OptionalLong ridesStored) {}

    /** Asks {@code baseUrl + "/statistics"} once within the timeouts; network and HTTP problems are in the answer. */
    public static Answer statistics(String baseUrl, int connectTimeoutMillis, int readTimeoutMillis) {
        OkHttpClient http = new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(1, 1, TimeUnit.SECONDS)) // its own, emptied after
                .connectTimeout(connectTimeoutMillis, TimeUnit.MILLISECONDS)
                .readTimeout(readTimeoutMillis, TimeUnit.MILLISECONDS)
                .writeTimeout(readTimeoutMillis, TimeUnit.MILLISECONDS)
                .callTimeout(
                        HttpSettings.defaultCallTimeoutMillis(connectTimeoutMillis, readTimeoutMillis),
                        TimeUnit.MILLISECONDS)
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .build();
        ApiClient client = new ApiClient();
        client.setHttpClient(http);
        client.setBasePath(baseUrl);
        try {
            APIStats stats =
                    new StatisticsApi(client).getPerformanceStatsWithHttpInfo().getData();
            Long stored = stats == null ? null : stats.getRidesStored();
            if (stored == null || stored < 0) {
                return new Answer(
                        true,
                        200,
                        stored == null ? "no ridesStored in the answer" : "ridesStored < 0: " + stored,
                        OptionalLong.empty());
            }
            return new Answer(true, 200, null, OptionalLong.of(stored));
        } catch (ApiException e) {
            if (e.getCode() != 0) {
                return new Answer(
                        true, e.getCode(), "GET /statistics answered HTTP " + e.getCode(), OptionalLong.empty());
            }
            return new Answer(false, 0, reason(e.getCause() != null ? e.getCause() : e), OptionalLong.empty());
        } catch (RuntimeException e) {
            // e.g. a 200 whose body is not our APIStats: the server is there, it is just not ours
            return new Answer(true, 200, "unreadable /statistics answer: " + reason(e), OptionalLong.empty());
        } finally {
            http.connectionPool().evictAll(); // its connection closes now, not after the keep-alive
        }
    }

    private static String reason(Throwable t) {
        String kind = t instanceof IOException && AttemptCodes.classify((IOException) t) == AttemptCodes.TIMEOUT
                ? "timeout"
                : t.getClass().getSimpleName();
        return t.getMessage() == null ? kind : kind + ": " + ServerText.clean(t.getMessage());
    }
}
