package io.upic.liftride.client.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;

/**
 * The int codes an attempt ends with: an HTTP status (100..599) when the server answered with one, or one of
 * the negative error kinds below when it did not. Listeners receive these codes; failures are
 * counted by them. Static and thread-safe.
 */
public final class AttemptCodes {

    /** The one status that counts as success for a lift-ride POST. */
    public static final int SUCCESS = 201;
    /** Connect, read or write timeout: no answer in time. */
    public static final int TIMEOUT = -1;
    /** Refused, reset, closed or any other I/O failure before a status arrived. */
    public static final int CONNECTION_ERROR = -2;
    /** An unexpected exception inside the client (a bug, not the network); still retried and counted. */
    public static final int CLIENT_ERROR = -3;
    /** A status outside 100..599: a failed attempt, retried like a 5XX. */
    public static final int INVALID_STATUS = -4;

    private AttemptCodes() {}

    /** Whether {@code code} is {@link #SUCCESS}. */
    public static boolean isSuccess(int code) {
        return code == SUCCESS;
    }

    /** Whether {@code code} is 201 or 200, for counting attempts; a request's success is its operation's status. */
    public static boolean isSuccessStatus(int code) {
        return code == SUCCESS || code == 200;
    }

    /** {@code status} as an attempt's code: itself when in 100..599, else {@link #INVALID_STATUS}. */
    public static int ofStatus(int status) {
        return status >= 100 && status <= 599 ? status : INVALID_STATUS;
    }

    /** The error kind of an I/O failure: {@link #TIMEOUT} for timeouts, else {@link #CONNECTION_ERROR}. */
    public static int classify(IOException e) {
        if (e instanceof SocketTimeoutException) {
            return TIMEOUT;
        }
        // okio's AsyncTimeout (write/read deadline) throws InterruptedIOException("timeout").
        if (e instanceof InterruptedIOException && "timeout".equals(e.getMessage())) {
            return TIMEOUT;
        }
        return CONNECTION_ERROR;
    }

    /** Human-readable name: "HTTP 503", "timeout", "connection error", "client error", "invalid status". */
    public static String describe(int code) {
        switch (code) {
            case TIMEOUT:
                return "timeout";
            case CONNECTION_ERROR:
                return "connection error";
            case CLIENT_ERROR:
                return "client error";
            case INVALID_STATUS:
                return "invalid status (not 100..599)";
            default:
                return code >= 0 ? "HTTP " + code : "error " + code;
        }
    }
}
