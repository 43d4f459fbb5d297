package io.upic.liftride.server.http;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.upic.liftride.server.validation.Rejection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.res.StringManager;

/**
 * The one place that writes response bodies: JSON in UTF-8 with an exact Content-Length, and every error as
 * {@code {"message": "..."}}. Stateless and thread-safe.
 */
public final class JsonResponses {
    public static final String CONTENT_TYPE = "application/json;charset=UTF-8";
    /** What a 503 asks the client to wait: the store's own timeouts are about a second. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();
    private static final StringManager TOMCAT_STRINGS =
            StringManager.getManager("org.apache.catalina.valves", Locale.ENGLISH);

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
        send(response, status, GSON.toJson(Map.of("message", message)));
    }

    /** 405 with {@code Allow}: {@code allowed} is the header's value, e.g. {@code GET, HEAD}. */
    public static void methodNotAllowed(HttpServletResponse response, String method, String path, String allowed)
            throws IOException {
        response.setHeader("Allow", allowed);
        message(
                response,
                HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                "method " + method + " is not allowed on " + path + "; allowed: " + allowed);
    }

    /** 503 with Retry-After. */
    public static void unavailable(HttpServletResponse response, String message) throws IOException {
        response.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
        message(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, message);
    }

    /** {@code body} (maps, lists, records, numbers, strings) as JSON. */
    public static void send(HttpServletResponse response, int status, Object body) throws IOException {
        send(response, status, toJson(body));
    }

    public static void send(HttpServletResponse response, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(CONTENT_TYPE);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** An object of name-value pairs in this order, for {@link #send(HttpServletResponse, int, Object)}. */
    public static Map<String, Object> object(Object... namesAndValues) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return object;
    }

    public static String toJson(Object body) {
        return GSON.toJson(body);
    }

    /** Tomcat's reason phrase for a status ({@code Not Found}), for errors raised without a message. */
    public static String reason(int status) {
        String reason = TOMCAT_STRINGS.getString("http." + status + ".reason");
        return reason == null || reason.startsWith("Cannot find message") ? "HTTP status " + status : reason;
    }

    /** The message of the innermost cause, else its class's name. */
    public static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }
}
