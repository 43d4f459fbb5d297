package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.http.HttpResponse;
import java.util.Locale;

/** Checks that an error answer is the API's JSON ResponseMsg and never an HTML page. Test helper. */
final class JsonAssertions {
    static final String JSON = "application/json;charset=UTF-8";

    private JsonAssertions() {}

    /** Asserts a JSON error with exactly {@code status} and {@code message}. */
    static void assertError(HttpResponse<String> response, int status, String message) {
        assertEquals(message, errorMessage(response, status));
    }

    /** Asserts a JSON error with {@code status} and returns its (non-blank) message. */
    static String errorMessage(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), () -> "body: " + response.body());
        return errorMessage(response.headers().firstValue("Content-Type").orElse(null), response.body());
    }

    static String errorMessage(RawHttp.Response response, int status) {
        assertEquals(status, response.status(), () -> "body: " + response.body());
        return errorMessage(response.header("Content-Type"), response.body());
    }

    /** A 4XX (or the odd 5XX the caller expects) with a JSON body holding a non-blank "message". */
    static String errorMessage(String contentType, String body) {
        assertEquals(JSON, contentType, () -> "Content-Type of " + body);
        assertFalse(body.toLowerCase(Locale.ROOT).contains("<html"), body);
        JsonElement json = JsonParser.parseString(body);
        assertTrue(json.isJsonObject(), body);
        JsonObject object = json.getAsJsonObject();
        assertTrue(object.has("message") && object.get("message").isJsonPrimitive(), body);
        String message = object.get("message").getAsString();
        assertFalse(message.isBlank(), body);
        return message;
    }
}
