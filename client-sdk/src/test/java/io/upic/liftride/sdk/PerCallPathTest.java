package io.upic.liftride.sdk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.model.LiftRide;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okio.Buffer;
import org.junit.jupiter.api.Test;

/**
 * The project's ApiClient and api templates (client-sdk/templates) build every request as the stock
 * okhttp4-gson templates do: each fast path is checked here against the stock code path it
 * replaces (regex path substitution, {@code URLEncoder} plus a regex, a regex media-type check,
 * parsing the whole URL, OkHttp's String request body).
 */
class PerCallPathTest {

    private static final String[] TEXTS = {
        "2022",
        "007",
        "",
        "a b",
        "a+b",
        "a/b",
        "50%",
        "~tilde",
        "*star*",
        "dot.dash-under_",
        "é",
        "日本",
        "?x=1&y",
        "#frag"
    };

    /** The stock template's escapeString. */
    private static String stockEscape(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replaceAll("\\+", "%20");
    }

    /** The stock template's isJsonMime. */
    private static boolean stockIsJsonMime(String mime) {
        String jsonMime = "(?i)^(application/json|[^;/ \t]+/[^;/ \t]+[+]json)[ \t]*(;.*)?$";
        return mime != null && (mime.matches(jsonMime) || mime.equals("*/*"));
    }

    private static ApiClient client(String basePath) {
        return new ApiClient().setBasePath(basePath);
    }

    private static Request get(ApiClient api, String path, List<Pair> query) throws ApiException {
        Map<String, String> headers = new HashMap<>();
        return api.buildRequest(
                path, "GET", query, new ArrayList<>(), null, headers, new HashMap<>(), new String[0], null);
    }

    @Test
    void escapeStringEncodesEveryTextAsUrlEncoderWithSpacesAsPercent20() {
        ApiClient api = new ApiClient();
        for (String text : TEXTS) {
            assertEquals(stockEscape(text), api.escapeString(text), text);
        }
    }

    @Test
    void isJsonMimeAnswersAsTheRegex() {
        ApiClient api = new ApiClient();
        String[] mimes = {
            "application/json",
            "APPLICATION/JSON",
            "application/json; charset=UTF-8",
            "application/json ;x=y",
            "application/vnd.company+json",
            "application/problem+json; q=1",
            "*/*",
            "text/plain",
            "application/jsonx",
            "application/xml",
            "json",
            "",
            "application/json\n",
            null
        };
        for (String mime : mimes) {
            assertEquals(stockIsJsonMime(mime), api.isJsonMime(mime), String.valueOf(mime));
        }
    }

    @Test
    void theUrlOfEveryBasePathPathAndQueryIsTheParsedConcatenation() throws ApiException {
        String[] bases = {
            "http://127.0.0.1:8080/liftride",
            "http://localhost:8080",
            "http://h/a/b/",
            "http://h/",
            "https://Example.COM:443/x"
        };
        String[] paths = {
            "/statistics", "/skiers/1/seasons/2022/days/1/skiers/5", "/a//b", "/a/./b/../c", "/p%20q", "/x?y=1"
        };
        for (String base : bases) {
            for (String path : paths) {
                for (List<Pair> query :
                        List.of(List.<Pair>of(), List.of(new Pair("resort", "1"), new Pair("season", "20 22")))) {
                    StringBuilder url = new StringBuilder(base).append(path);
                    String sep = path.contains("?") ? "&" : "?";
                    for (Pair p : query) {
                        url.append(sep)
                                .append(stockEscape(p.getName()))
                                .append('=')
                                .append(stockEscape(p.getValue()));
                        sep = "&";
                    }
                    ApiClient api = client(base);
                    Request twice = get(api, path, new ArrayList<>(query)); // the second call uses the cached base URL
                    assertEquals(
                            HttpUrl.get(url.toString()),
                            get(api, path, new ArrayList<>(query)).url(),
                            base + " " + path);
                    assertEquals(
                            twice.url(), get(api, path, new ArrayList<>(query)).url());
                }
            }
        }
    }

    @Test
    void aPathValueIsReplacedByItsEscapedTextAsTheStockRegexDid() throws ApiException {
        ApiClient api = client("http://127.0.0.1:8080/liftride");
        for (String season : TEXTS) {
            if (season.isEmpty()) {
                continue; // the stock template sends "//" then, which is not a valid call either way
            }
            Request r = new SkiersApi(api)
                    .writeNewLiftRideCall(new LiftRide().liftID(1).time(2), 3, season, "1", 4, null, null, null)
                    .request();
            String stockPath = "/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}"
                    .replaceAll("\\{" + "resortID" + "\\}", stockEscape("3"))
                    .replaceAll("\\{" + "seasonID" + "\\}", stockEscape(season).replace("$", "\\$"))
                    .replaceAll("\\{" + "dayID" + "\\}", stockEscape("1"))
                    .replaceAll("\\{" + "skierID" + "\\}", stockEscape("4"));
            assertEquals(HttpUrl.get("http://127.0.0.1:8080/liftride" + stockPath), r.url(), season);
        }
    }

    @Test
    void aJsonBodyHasOkHttpsStringBodyTypeAndBytes() throws Exception {
        ApiClient api = client("http://127.0.0.1:8080/liftride");
        LiftRide ride = new LiftRide().liftID(21).time(217).waitTime(3);
        for (int i = 0; i < 2; i++) { // the second request's media type comes from the cache
            Request r = new SkiersApi(api)
                    .writeNewLiftRideCall(ride, 1, "2022", "1", 123, "key-1", null, null)
                    .request();
            RequestBody stock = RequestBody.create(api.getJSON().serialize(ride), MediaType.parse("application/json"));
            assertEquals(stock.contentType(), r.body().contentType());
            assertArrayEquals(bytes(stock), bytes(r.body()));
            assertEquals("POST", r.method());
            assertEquals("application/json", r.header("Accept"));
            assertEquals("key-1", r.header("Idempotency-Key"));
        }
    }

    @Test
    void aJsonBodyOfAnyJsonContentTypeHasOkHttpsStringBodyTypeAndBytes() throws Exception {
        ApiClient api = client("http://127.0.0.1:8080/liftride");
        LiftRide ride = new LiftRide().liftID(21).time(217);
        for (String contentType : new String[] {
            "application/json", "application/json; charset=UTF-16", "application/vnd.x+json", "APPLICATION/JSON"
        }) {
            Map<String, String> headers = new HashMap<>();
            headers.put("Content-Type", contentType);
            Request r = api.buildRequest(
                    "/x",
                    "POST",
                    new ArrayList<>(),
                    new ArrayList<>(),
                    ride,
                    headers,
                    new HashMap<>(),
                    new String[0],
                    null);
            RequestBody stock = RequestBody.create(api.getJSON().serialize(ride), MediaType.parse(contentType));
            assertEquals(stock.contentType(), r.body().contentType(), contentType);
            assertArrayEquals(bytes(stock), bytes(r.body()), contentType);
        }
    }

    private static byte[] bytes(RequestBody body) throws Exception {
        Buffer b = new Buffer();
        body.writeTo(b);
        return b.readByteArray();
    }
}
