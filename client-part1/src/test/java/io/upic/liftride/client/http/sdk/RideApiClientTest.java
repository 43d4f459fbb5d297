package io.upic.liftride.client.http.sdk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.upic.liftride.sdk.ApiClient;
import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.model.LiftRide;
import java.io.IOException;
import okhttp3.Request;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The worker's ApiClient builds the lift-ride POST the generated code builds, with less work after the first. */
class RideApiClientTest {

    private static final String BASE = "http://127.0.0.1:8080/liftride";

    private final CallDeadlines deadlines = new CallDeadlines(10_000, "test deadlines");
    private final PathUrls urls = new PathUrls(BASE);
    private final SkiersApi fast = api(new RideApiClient(deadlines.newSlot(), urls));
    private final SkiersApi stock = api(new ApiClient());

    @AfterEach
    void stop() {
        deadlines.close();
    }

    private static SkiersApi api(ApiClient client) {
        client.setBasePath(BASE);
        return new SkiersApi(client);
    }

    private static Request post(SkiersApi api, LiftRide ride, int skier, String key) throws Exception {
        return api.writeNewLiftRideCall(ride, 7, "2022", "31", skier, key, null, null)
                .request();
    }

    private static LiftRide ride(Integer lift, Integer time, Integer wait) {
        return new LiftRide().liftID(lift).time(time).waitTime(wait);
    }

    private static void assertSameRequest(Request expected, Request actual) throws IOException {
        assertEquals(expected.url(), actual.url());
        assertEquals(expected.method(), actual.method());
        assertEquals(expected.headers(), actual.headers(), "the same headers in the same order");
        assertEquals(expected.body().contentType(), actual.body().contentType());
        assertEquals(expected.body().contentLength(), actual.body().contentLength());
        assertArrayEquals(bytes(expected), bytes(actual));
    }

    private static byte[] bytes(Request request) throws IOException {
        Buffer buffer = new Buffer();
        request.body().writeTo(buffer);
        return buffer.readByteArray();
    }

    @Test
    void aRepeatedPathIsBuiltFromTheTemplateAndSendsWhatTheGeneratedCodeSends() throws Exception {
        Request first = post(fast, ride(1, 2, 3), 123, "run-1-1");
        assertSameRequest(post(stock, ride(1, 2, 3), 123, "run-1-1"), first);

        Request again = post(fast, ride(60, 420, 10), 123, "run-1-2");
        assertSame(first.url(), again.url(), "the kept URL, not one built again");
        assertSameRequest(post(stock, ride(60, 420, 10), 123, "run-1-2"), again);

        Request extremes = post(fast, ride(Integer.MIN_VALUE, 0, Integer.MAX_VALUE), 123, "k");
        assertSame(first.url(), extremes.url());
        assertSameRequest(post(stock, ride(Integer.MIN_VALUE, 0, Integer.MAX_VALUE), 123, "k"), extremes);
    }

    @Test
    void anyOtherShapeIsBuiltByTheGeneratedCode() throws Exception {
        Request first = post(fast, ride(1, 2, 3), 5, "a");
        // a new path: its URL is built (and kept)
        Request otherSkier = post(fast, ride(1, 2, 3), 6, "b");
        assertNotSame(first.url(), otherSkier.url());
        assertSameRequest(post(stock, ride(1, 2, 3), 6, "b"), otherSkier);
        assertSame(otherSkier.url(), post(fast, ride(1, 2, 3), 6, "c").url());
        // no Idempotency-Key: other header names
        assertSameRequest(post(stock, ride(4, 5, 6), 5, null), post(fast, ride(4, 5, 6), 5, null));
        // Gson leaves a null field out
        assertSameRequest(post(stock, ride(4, null, 6), 5, "d"), post(fast, ride(4, null, 6), 5, "d"));
        // back to the template's shape
        assertSameRequest(post(stock, ride(7, 8, 9), 5, "e"), post(fast, ride(7, 8, 9), 5, "e"));
    }

    @Test
    void aChangedDefaultHeaderIsSentFromTheNextRequestOn() throws Exception {
        Request first = post(fast, ride(1, 2, 3), 9, "a");
        post(fast, ride(1, 2, 3), 9, "b");
        fast.getApiClient().setUserAgent("other/1");
        stock.getApiClient().setUserAgent("other/1");
        Request after = post(fast, ride(1, 2, 3), 9, "c");
        assertNotSame(first.url(), after.url(), "built by the generated code again");
        assertEquals("other/1", after.header("User-Agent"));
        assertSameRequest(post(stock, ride(1, 2, 3), 9, "c"), after);
        Request next = post(fast, ride(1, 2, 3), 9, "d");
        assertSame(first.url(), next.url(), "from the new template");
        assertSameRequest(post(stock, ride(1, 2, 3), 9, "d"), next);
    }

    @Test
    void urlsOfAnotherBaseAreNeitherKeptNorGiven() {
        okhttp3.HttpUrl url = okhttp3.HttpUrl.get(BASE + "/x");
        urls.put("http://other:1/liftride", "/x", url);
        assertEquals(null, urls.get(BASE, "/x"));
        urls.put(BASE, "/x", url);
        assertSame(url, urls.get(BASE, "/x"));
        assertEquals(null, urls.get("http://other:1/liftride", "/x"));
    }
}
