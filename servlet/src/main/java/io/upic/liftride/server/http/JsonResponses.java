package io.upic.liftride.server.http;

import com.google.gson.stream.JsonWriter;
import io.upic.liftride.server.validation.Rejection;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import javax.servlet.http.HttpServletResponse;

/**
 * The one place that writes response bodies: JSON in UTF-8 with an exact Content-Length (no chunked
 * encoding for bodies this small), and every error as {@code {"message": "..."}}. Stateless and
 * thread-safe.
 */
public final class JsonResponses {
    public static final String CONTENT_TYPE = "application/json;charset=UTF-8";
    /** What a 503 asks the client to wait: the store's own timeouts are about a second. */
    public static final int RETRY_AFTER_SECONDS = 1;

    /** Builds one JSON document. */
    @FunctionalInterface
    public interface JsonBody {
        void writeTo(JsonWriter json) throws IOException;
    }

    private JsonResponses() {}

    /** 201 with an empty body: the cheapest answer for the load-tested POST. */
    public static void created(HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentLength(0);
    }

    public static void reject(HttpServletResponse response, Rejection rejection) throws IOException {
        message(response, rejection.status(), rejection.message());
    }

    /** {@code {"message": "..."}} with {@code status}. */
    public static void message(HttpServletResponse response, int status, String message) throws IOException {
        send(response, status, messageJson(message));
    }

    public static void send(HttpServletResponse response, int status, JsonBody body) throws IOException {
        send(response, status, toJson(body));
    }

    public static void send(HttpServletResponse response, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** {@code {"message":"..."}}, escaped by Gson's writer (quotes, control characters, lone surrogates). */
    public static String messageJson(String message) {
        return toJson(json -> json.beginObject().name("message").value(message).endObject());
    }

    public static String toJson(JsonBody body) {
        StringWriter out = new StringWriter(128);
        try (JsonWriter json = new JsonWriter(out)) {
            json.setHtmlSafe(false);
            body.writeTo(json);
        } catch (IOException impossible) {
            throw new UncheckedIOException("a StringWriter does not fail", impossible);
        }
        return out.toString();
    }

    /** The standard phrase for a status, for errors the container raises without a message. */
    public static String reason(int status) {
        switch (status) {
            case 400:
                return "bad request";
            case 401:
                return "unauthorized";
            case 403:
                return "forbidden";
            case 404:
                return "not found";
            case 405:
                return "method not allowed";
            case 408:
                return "request timeout";
            case 411:
                return "Content-Length required";
            case 413:
                return "request body too large";
            case 414:
                return "URI too long";
            case 415:
                return "unsupported media type";
            case 417:
                return "expectation failed";
            case 431:
                return "request header fields too large";
            case 500:
                return "internal server error";
            case 501:
                return "not implemented";
            case 503:
                return "service unavailable";
            case 505:
                return "HTTP version not supported";
            default:
                return "HTTP status " + status;
        }
    }
}
