package io.upic.liftride.client.http.sdk;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryAfter;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.api.ResortsApi;
import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.model.LiftRide;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A {@link RideSender} on the generated {@code SkiersApi} and {@code ResortsApi}: a status is returned and an I/O
 * failure rethrown as its original {@link IOException} (the SDK wraps both in {@link ApiException}). One per
 * worker; not thread-safe.
 */
final class SdkRideSender implements RideSender {

    private final SkiersApi api;
    private final ResortsApi resorts;
    private final Runnable release;
    // seasonID and dayID are strings in the API and constant for a run: convert once, not per request.
    private int seasonId = Integer.MIN_VALUE;
    private String seasonText;
    private int dayId = Integer.MIN_VALUE;
    private String dayText;
    private long retryAfterMillis = RetryAfter.NONE;

    /** A sender on {@code client}; {@code release} frees what is the worker's own (its pool) when it closes. */
    SdkRideSender(ApiClient client, Runnable release) {
        this.api = new SkiersApi(client);
        this.resorts = new ResortsApi(client);
        this.release = release;
    }

    /** Connections in this sender's own pool, idle or in use (tests: a closed sender's pool is empty). */
    int connectionCount() {
        return api.getApiClient().getHttpClient().connectionPool().connectionCount();
    }

    @Override
    public int send(
            int resortId, int seasonId, int dayId, int skierId, int liftId, int minute, int waitTime, String rideKey)
            throws IOException {
        texts(seasonId, dayId);
        LiftRide ride = new LiftRide().liftID(liftId).time(minute).waitTime(waitTime);
        return status(() -> api.writeNewLiftRideWithHttpInfo(ride, resortId, seasonText, dayText, skierId, rideKey)
                .getStatusCode());
    }

    @Override
    public int get(Operation op, int resortId, int seasonId, int dayId, int skierId) throws IOException {
        texts(seasonId, dayId);
        return status(() -> switch (op) {
            case GET_SKIER_DAY_VERTICAL ->
                api.getSkierDayVerticalWithHttpInfo(resortId, seasonText, dayText, skierId)
                        .getStatusCode();
            case GET_RESORT_SKIERS_DAY ->
                resorts.getResortSkiersDayWithHttpInfo(resortId, seasonId, dayId)
                        .getStatusCode();
            case GET_SKIER_RESORT_TOTALS ->
                api.getSkierResortTotalsWithHttpInfo(skierId, List.of(resortId), List.of(seasonText))
                        .getStatusCode();
            default -> throw new IllegalArgumentException("not a GET: " + op.operationId());
        });
    }

    /** seasonID and dayID as the API's strings, converted when they change. */
    private void texts(int seasonId, int dayId) {
        if (seasonId != this.seasonId) {
            this.seasonId = seasonId;
            this.seasonText = Integer.toString(seasonId);
        }
        if (dayId != this.dayId) {
            this.dayId = dayId;
            this.dayText = Integer.toString(dayId);
        }
    }

    /** One SDK call. */
    @FunctionalInterface
    private interface Call {
        int statusCode() throws ApiException;
    }

    /** The status of {@code call}, a non-2xx one included; its I/O failure rethrown as the original exception. */
    private int status(Call call) throws IOException {
        retryAfterMillis = RetryAfter.NONE;
        try {
            return call.statusCode();
        } catch (ApiException e) {
            if (e.getCode() != 0 || e.getResponseHeaders() != null) { // the server answered with a non-2xx status
                retryAfterMillis = retryAfter(e.getResponseHeaders());
                return e.getCode();
            }
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("SDK failed without a status or an I/O cause", e);
        }
    }

    /** OkHttp's multimap has lower-case names. */
    private static long retryAfter(Map<String, List<String>> headers) {
        List<String> values = headers == null ? null : headers.get("retry-after");
        return values == null || values.isEmpty()
                ? RetryAfter.NONE
                : RetryAfter.millis(values.get(0), System.currentTimeMillis());
    }

    @Override
    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** Closes the worker's connection: no other worker's calls can use it. */
    @Override
    public void close() {
        release.run();
    }
}
