package io.upic.liftride.server.web;

import java.io.IOException;
import javax.servlet.AsyncContext;
import javax.servlet.AsyncEvent;
import javax.servlet.AsyncListener;

/**
 * An answer written later, on another thread, to a request kept open ({@link RequestBodies#answerLater}): once,
 * and never after the container ended the request (its response may serve another by then). Thread-safe: the
 * answer and the container's error are serialized on this object.
 */
public final class LaterAnswer implements AsyncListener {
    /** Writes an answer into the response. */
    @FunctionalInterface
    public interface Writer {
        void write() throws IOException;
    }

    private final AsyncContext async;
    /** Guarded by this: answered, or ended by the container. */
    private boolean ended;

    LaterAnswer(AsyncContext async) {
        this.async = async;
    }

    /**
     * Writes the answer and completes the request, unless it has already ended; an answer that cannot be
     * written (the client is gone) still completes it.
     */
    public synchronized void send(Writer writer) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            writer.write();
        } catch (IOException | RuntimeException clientGone) {
            // nothing more to tell a client that is gone: the request is completed below in any case
        } finally {
            complete();
        }
    }

    private void complete() {
        try {
            async.complete();
        } catch (IllegalStateException alreadyEnded) {
            // the container ended it meanwhile: nothing left to complete
        }
    }

    @Override
    public synchronized void onError(AsyncEvent event) {
        if (!ended) {
            ended = true; // the client went away: no answer will be written
            complete();
        }
    }

    @Override
    public synchronized void onTimeout(AsyncEvent event) {
        onError(event); // no timeout is set (the store bounds the wait), but never leave it open
    }

    @Override
    public synchronized void onComplete(AsyncEvent event) {
        ended = true;
    }

    @Override
    public void onStartAsync(AsyncEvent event) {}
}
