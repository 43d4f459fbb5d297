package io.upic.liftride.server.tomcat;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.tomcat.util.res.StringManager;

/**
 * A Host's error report as the API's {@code {"message": "..."}} instead of Tomcat's HTML page, for errors raised
 * before a request reaches the web application; never empty, never a stack trace. Depends on Tomcat alone, so
 * {@code liftride-tomcat-valve.jar} holds just this class. Stateless and thread-safe.
 */
public final class JsonErrorReportValve extends ErrorReportValve {
    private static final int MAX_MESSAGE_CHARS = 200;
    private static final int BAD_REQUEST = 400;
    private static final int NOT_IMPLEMENTED = 501;
    private static final StringManager TOMCAT_STRINGS =
            StringManager.getManager("org.apache.catalina.valves", Locale.ENGLISH);

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // the same conditions as Tomcat's own report: an error, nothing written yet, reported once
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return; // the connection is broken; nobody would read the answer
        }
        String message = message(status, response.getMessage(), throwable);
        if (status == NOT_IMPLEMENTED) {
            // Tomcat's only 501 is a Transfer-Encoding it does not know: client input, so a 400 like any other
            response.setStatus(BAD_REQUEST);
            message = unknownCoding(request.getHeader("Transfer-Encoding"));
        }
        try {
            response.setContentType("application/json;charset=UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"message\":\"" + escape(message) + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException ignored) {
            // the client went away or the response was committed meanwhile: nothing left to tell anyone
        }
    }

    /** The message for a request whose Transfer-Encoding Tomcat refused with 501. */
    static String unknownCoding(String transferEncoding) {
        return "Transfer-Encoding must be chunked (or absent, with a Content-Length), got \""
                + shorten(transferEncoding == null ? "" : transferEncoding) + "\"";
    }

    /**
     * Tomcat's message for 4XX (e.g. "Invalid URI: ..."), else the status's reason phrase; exception text stays in
     * logs.
     */
    static String message(int status, String tomcatMessage, Throwable throwable) {
        if (status < 500 && throwable == null && tomcatMessage != null && !tomcatMessage.isBlank()) {
            return shorten(tomcatMessage);
        }
        String reason = TOMCAT_STRINGS.getString("http." + status + ".reason");
        return reason == null || reason.startsWith("Cannot find message") ? "HTTP status " + status : reason;
    }

    private static String shorten(String text) {
        return text.length() > MAX_MESSAGE_CHARS ? text.substring(0, MAX_MESSAGE_CHARS) + "..." : text;
    }

    /** A JSON string's content: quotes, backslashes and control characters escaped. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
