package io.upic.liftride.server.web;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.validation.MediaTypes;
import io.upic.liftride.server.validation.Rejection;
import io.upic.liftride.server.validation.Result;
import io.upic.liftride.server.validation.Rules;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.servlet.AsyncContext;
import javax.servlet.AsyncEvent;
import javax.servlet.AsyncListener;
import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Reads a request body into memory within a size limit and a deadline for the whole body, so a hostile
 * client can neither make the server buffer more nor hold a request thread. A body already whole is read
 * on the request thread; any other is read with Servlet 3.1 non-blocking I/O, whose {@link AsyncContext}
 * timeout is the deadline ({@link ReadListener}; blocking reads would park a thread per slow client).
 * Stateless and thread-safe.
 */
public final class RequestBodies {
    /** The bytes read: {@code bytes[0..length)}. */
    public record Body(byte[] bytes, int length) {}

    /** What a servlet does with a body once it is read, or with its rejection; may run on another thread. */
    @FunctionalInterface
    public interface BodyHandler {
        void accept(Result<Body> body) throws IOException;
    }

    /** The request attribute {@link #answerLater} sets: the handler will complete the request itself. */
    private static final String ANSWER_LATER = RequestBodies.class.getName() + ".answerLater";

    private static final int LIMIT = Rules.MAX_BODY_BYTES;

    private RequestBodies() {}

    /**
     * Reads a JSON body and hands it to {@code then}: 415 unless JSON, 413 past {@link Rules#MAX_BODY_BYTES},
     * 408 past {@code deadlineMillis}. {@code then} runs on this thread or later on a container thread; it may
     * answer later ({@link #answerLater}).
     */
    public static void readJson(
            HttpServletRequest request, HttpServletResponse response, int deadlineMillis, BodyHandler then)
            throws IOException {
        Rejection mediaType = MediaTypes.checkJson(request.getContentType());
        if (mediaType != null) {
            then.accept(Result.rejected(mediaType));
            return;
        }
        long declared = request.getContentLengthLong();
        if (declared > LIMIT) {
            then.accept(Result.rejected(tooLarge("Content-Length is " + declared)));
            return;
        }
        ServletInputStream in = request.getInputStream();
        byte[] buffer = new byte[declared >= 0 ? (int) declared : 256];
        int length = 0;
        if (declared >= 0) {
            // Read what has arrived: available() > 0 means Tomcat holds received bytes (it says 1, not how
            // many), and a read then returns them without waiting for the socket.
            try {
                while (length < declared && in.available() > 0) {
                    int n = in.read(buffer, length, buffer.length - length);
                    if (n < 0) {
                        break;
                    }
                    length += n;
                }
            } catch (IOException unreadable) {
                then.accept(unreadable(unreadable));
                return;
            }
            if (length == declared) {
                then.accept(Result.ok(new Body(buffer, length))); // here whole: nothing waited
                return;
            }
        }
        TomcatContinue.send(request); // the body is wanted: a client waiting for "100 Continue" gets it now
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(deadlineMillis);
        NonBlockingBody reader = new NonBlockingBody(async, in, buffer, length, declared, then);
        async.addListener(reader);
        in.setReadListener(reader);
    }

    /**
     * Keeps the request open for an answer written later on another thread. The caller must {@link
     * LaterAnswer#send} it; the request has no timeout, so the caller's own bound must end it.
     */
    public static LaterAnswer answerLater(HttpServletRequest request, HttpServletResponse response) {
        AsyncContext async =
                request.isAsyncStarted() ? request.getAsyncContext() : request.startAsync(request, response);
        async.setTimeout(0);
        request.setAttribute(ANSWER_LATER, Boolean.TRUE);
        LaterAnswer answer = new LaterAnswer(async);
        async.addListener(answer);
        return answer;
    }

    private static Result<Body> complete(byte[] buffer, int length, long declared) {
        if (declared >= 0 && length < declared) {
            return Result.badRequest("body ended after " + length + " of the " + declared + " bytes in Content-Length");
        }
        return Result.ok(new Body(buffer, length));
    }

    private static Result<Body> unreadable(IOException error) {
        if (isTimeout(error)) {
            return Result.rejected(new Rejection(408, "body was not received within the server's timeout"));
        }
        return Result.badRequest("body could not be read: " + JsonResponses.rootMessage(error));
    }

    private static Rejection tooLarge(String what) {
        return new Rejection(413, "body must be at most " + LIMIT + " bytes, " + what);
    }

    private static boolean isTimeout(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * One body read without blocking: Tomcat calls it when bytes arrive, when the body is complete,
     * on an I/O error and when the deadline passes. The first outcome wins ({@link #finished}); the
     * poller and the timeout thread may race, so everything after that check runs once.
     */
    private static final class NonBlockingBody implements ReadListener, AsyncListener {
        private final AsyncContext async;
        private final ServletInputStream in;
        private final long declared;
        private final BodyHandler then;
        private final AtomicBoolean finished = new AtomicBoolean();
        private byte[] buffer;
        private int length;

        NonBlockingBody(
                AsyncContext async, ServletInputStream in, byte[] buffer, int length, long declared, BodyHandler then) {
            this.async = async;
            this.in = in;
            this.buffer = buffer;
            this.length = length;
            this.declared = declared;
            this.then = then;
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (!finished.get() && in.isReady()) {
                if (length == buffer.length) {
                    if (declared >= 0) {
                        return; // everything declared has arrived: onAllDataRead follows
                    }
                    if (length > LIMIT) {
                        finish(Result.rejected(tooLarge("the chunked body is longer")));
                        return;
                    }
                    buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, LIMIT + 1));
                }
                // A read error (malformed chunk, early end) goes to onError, where the answer can be written.
                int n = in.read(buffer, length, buffer.length - length);
                if (n < 0) {
                    return; // onAllDataRead follows
                }
                length += n;
            }
        }

        @Override
        public void onAllDataRead() throws IOException {
            finish(complete(buffer, length, declared));
        }

        @Override
        public void onError(Throwable error) {
            IOException io = error instanceof IOException e ? e : new IOException(error);
            finishQuietly(unreadable(io));
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            finishQuietly(Result.rejected(new Rejection(
                    408,
                    "body was not received within the server's deadline of " + async.getTimeout() + " ms ("
                            + length + " of " + (declared >= 0 ? declared + " bytes" : "a chunked body")
                            + " arrived)")));
        }

        @Override
        public void onComplete(AsyncEvent event) {}

        @Override
        public void onError(AsyncEvent event) {
            finishQuietly(unreadable(new IOException(event.getThrowable())));
        }

        @Override
        public void onStartAsync(AsyncEvent event) {}

        private void finishQuietly(Result<Body> body) {
            try {
                finish(body);
            } catch (IOException clientGone) {
                // the answer could not be written: the connection is closed below in any case
            }
        }

        /** Answers once: the handler with the body or its rejection, then completes the request. */
        private void finish(Result<Body> body) throws IOException {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            HttpServletResponse response = (HttpServletResponse) async.getResponse();
            try {
                if (!body.isOk()) {
                    // the rest of the body may never come: close rather than wait to skip it
                    response.setHeader("Connection", "close");
                }
                then.accept(body);
                if (!body.isOk()) {
                    // Sent now: after a read error or timeout Tomcat closes the connection without
                    // flushing. A few hundred bytes fit in the socket's buffer: this write never waits.
                    response.flushBuffer();
                }
            } finally {
                if (async.getRequest().getAttribute(ANSWER_LATER) == null) {
                    async.complete();
                }
            }
        }
    }
}
