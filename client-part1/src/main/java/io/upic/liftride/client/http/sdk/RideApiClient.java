package io.upic.liftride.client.http.sdk;

import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.ApiException;
import io.upic.liftride.sdk.JSON;
import io.upic.liftride.sdk.Pair;
import io.upic.liftride.sdk.ProgressRequestBody;
import io.upic.liftride.sdk.model.LiftRide;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.Buffer;

/**
 * The worker's {@link ApiClient} ({@link DeadlineApiClient}), building the lift-ride POST with less work per call:
 * the generated code's first request is the template of the next ones, with URLs from {@link PathUrls} and the
 * body written as the generated code would; any other call goes through the generated code, so what is sent does
 * not change. One per worker; not thread-safe.
 */
class RideApiClient extends DeadlineApiClient {

    private final PathUrls urls;
    /** The request of the last LiftRide POST the generated code built; null before one, or after a change. */
    private Template template;

    RideApiClient(CallDeadlines.Slot slot, PathUrls urls) {
        super(slot);
        this.urls = urls;
    }

    /** What a request built by the generated code tells us to build the next ones: see the class comment. */
    private record Template(
            String method, Set<String> headerNames, Headers defaults, MediaType bodyType, JSON json, String basePath) {}

    @Override
    public Request buildRequest(
            String path,
            String method,
            List<Pair> queryParams,
            List<Pair> collectionQueryParams,
            Object body,
            Map<String, String> headerParams,
            Map<String, Object> formParams,
            String[] authNames,
            ProgressRequestBody.ProgressRequestListener listener)
            throws ApiException {
        Template t = template;
        boolean plain = body instanceof LiftRide ride
                && complete(ride)
                && queryParams.isEmpty()
                && collectionQueryParams.isEmpty()
                && formParams.isEmpty()
                && authNames.length == 0
                && listener == null;
        boolean fits = plain
                && t != null
                && method.equals(t.method())
                && getJSON() == t.json()
                && getBasePath() == t.basePath()
                && headerParams.keySet().equals(t.headerNames());
        HttpUrl url = fits ? urls.get(t.basePath(), path) : null;
        if (url == null) {
            Request built = super.buildRequest(
                    path,
                    method,
                    queryParams,
                    collectionQueryParams,
                    body,
                    headerParams,
                    formParams,
                    authNames,
                    listener);
            if (plain) {
                if (!fits) {
                    remember(built, (LiftRide) body, headerParams);
                }
                urls.put(getBasePath(), path, built.url());
            }
            return built;
        }
        return new Request.Builder()
                .url(url)
                .headers(headers(headerParams, t.defaults()))
                .method(method, RequestBody.create(json((LiftRide) body), t.bodyType()))
                .build();
    }

    /** The call's header parameters, then the defaults it does not set, in one array (names are distinct). */
    private Headers headers(Map<String, String> headerParams, Headers defaults) {
        String[] namesAndValues = new String[2 * (headerParams.size() + defaults.size())];
        int i = 0;
        for (Map.Entry<String, String> header : headerParams.entrySet()) {
            namesAndValues[i++] = header.getKey();
            namesAndValues[i++] = parameterToString(header.getValue());
        }
        for (int d = 0; d < defaults.size(); d++) {
            namesAndValues[i++] = defaults.name(d);
            namesAndValues[i++] = defaults.value(d);
        }
        return Headers.of(namesAndValues);
    }

    /** Keeps the generated request as the template if its body and headers are what this class would build. */
    private void remember(Request built, LiftRide ride, Map<String, String> headerParams) {
        RequestBody body = built.body();
        if (body == null || !Arrays.equals(bytes(body), json(ride))) {
            template = null; // the model or the JSON settings write something else: the generated code does it all
            return;
        }
        Headers.Builder kept = built.headers().newBuilder();
        headerParams.keySet().forEach(kept::removeAll);
        Headers defaults = kept.build();
        if (!headers(headerParams, defaults).equals(built.headers())) {
            template = null; // names that differ only in case: the generated code sets the last one of them
            return;
        }
        template = new Template(
                built.method(),
                Set.copyOf(headerParams.keySet()),
                defaults,
                body.contentType(),
                getJSON(),
                getBasePath());
    }

    /** Whether Gson writes every field of the ride (it leaves nulls out). */
    private static boolean complete(LiftRide ride) {
        return ride.getTime() != null && ride.getLiftID() != null && ride.getWaitTime() != null;
    }

    /** The ride as Gson writes the generated model: its fields in declaration order, numbers as they are. */
    static byte[] json(LiftRide ride) {
        return ("{\"time\":" + ride.getTime() + ",\"liftID\":" + ride.getLiftID() + ",\"waitTime\":"
                        + ride.getWaitTime() + "}")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(RequestBody body) {
        try (Buffer buffer = new Buffer()) {
            body.writeTo(buffer);
            return buffer.readByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory body into a buffer
        }
    }

    /** A changed default header changes every request: the next one is built by the generated code again. */
    @Override
    public ApiClient addDefaultHeader(String key, String value) {
        template = null; // also called by the generated constructor, before this class's fields are set
        return super.addDefaultHeader(key, value);
    }
}
