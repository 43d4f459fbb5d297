package io.upic.liftride.server.web;

import io.upic.liftride.server.validation.MediaTypes;
import io.upic.liftride.server.validation.Rejection;
import io.upic.liftride.server.validation.Result;
import io.upic.liftride.server.validation.Rules;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import javax.servlet.http.HttpServletRequest;

/**
 * Reads a request body into memory, refusing more than a limit: from the Content-Length before
 * reading anything, and by counting bytes when the length is not declared (chunked transfer), so a
 * hostile client can never make the server buffer more than the limit. Stateless and thread-safe.
 */
public final class RequestBodies {
    /** The bytes read: {@code bytes[0..length)}. */
    public record Body(byte[] bytes, int length) {}

    private RequestBodies() {}

    /**
     * A JSON body as every POST of the API takes it: 415 unless the Content-Type is JSON, then
     * {@link #read} within {@link Rules#MAX_BODY_BYTES}. The order (415 before 413) is the API's.
     */
    public static Result<Body> readJson(HttpServletRequest request) {
        Rejection mediaType = MediaTypes.checkJson(request.getContentType());
        if (mediaType != null) {
            return Result.rejected(mediaType);
        }
        return read(request, Rules.MAX_BODY_BYTES);
    }

    /** The body, or 413 (too large), 408 (not received within the connector's timeout) or 400 (unreadable). */
    public static Result<Body> read(HttpServletRequest request, int limit) {
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            return Result.rejected(tooLarge(limit, "Content-Length is " + declared));
        }
        byte[] buffer = new byte[declared >= 0 ? (int) declared : 256];
        int length = 0;
        try {
            InputStream in = request.getInputStream();
            while (true) {
                if (length == buffer.length) {
                    if (declared >= 0) {
                        break; // everything declared has arrived
                    }
                    if (length > limit) {
                        return Result.rejected(tooLarge(limit, "the chunked body is longer"));
                    }
                    buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, limit + 1));
                }
                int n = in.read(buffer, length, buffer.length - length);
                if (n < 0) {
                    break;
                }
                length += n;
            }
        } catch (IOException unreadable) {
            if (isTimeout(unreadable)) {
                return Result.rejected(new Rejection(408, "body was not received within the server's timeout"));
            }
            return Result.badRequest("body could not be read: " + describe(unreadable));
        }
        if (declared >= 0 && length < declared) {
            return Result.badRequest("body ended after " + length + " of the " + declared + " bytes in Content-Length");
        }
        return Result.ok(new Body(buffer, length));
    }

    private static Rejection tooLarge(int limit, String what) {
        return new Rejection(413, "body must be at most " + limit + " bytes, " + what);
    }

    private static boolean isTimeout(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String describe(IOException error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }
}
