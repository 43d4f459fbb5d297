package io.upic.liftride.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.sdk.api.SkiersApi;
import io.upic.liftride.sdk.model.LiftRide;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import okhttp3.HttpUrl;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

/**
 * The per-call changes of client-sdk/templates answer as the stock okhttp4-gson code they replace: path
 * values replaced as plain text rather than by a regex, {@code escapeString} without {@code URLEncoder}
 * for plain text, {@code isJsonMime} without a regex for {@code application/json}.
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
    void aPathValueIsReplacedByItsEscapedTextAsTheStockRegexDid() throws ApiException {
        ApiClient api = new ApiClient().setBasePath("http://127.0.0.1:8080/liftride");
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
}
