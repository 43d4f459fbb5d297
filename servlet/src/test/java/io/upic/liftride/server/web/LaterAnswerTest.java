package io.upic.liftride.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import javax.servlet.AsyncContext;
import org.junit.jupiter.api.Test;

class LaterAnswerTest {
    private final AtomicInteger completions = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();
    private final LaterAnswer answer = new LaterAnswer((AsyncContext) Proxy.newProxyInstance(
            AsyncContext.class.getClassLoader(), new Class<?>[] {AsyncContext.class}, (proxy, method, args) -> {
                if (method.getName().equals("complete")) {
                    completions.incrementAndGet();
                    return null;
                }
                throw new UnsupportedOperationException(method.getName());
            }));

    @Test
    void writesTheAnswerAndCompletesTheRequestOnce() {
        answer.send(writes::incrementAndGet);
        answer.send(writes::incrementAndGet);
        assertEquals(1, writes.get());
        assertEquals(1, completions.get());
    }

    @Test
    void neverWritesIntoARequestTheContainerEndedBecauseTheClientWentAway() {
        answer.onError(null);
        answer.send(writes::incrementAndGet);
        assertEquals(0, writes.get(), "the response may already serve another request");
        assertEquals(1, completions.get(), "the request was completed at the error, once");
    }

    @Test
    void completesTheRequestEvenWhenTheAnswerCannotBeWritten() {
        answer.send(() -> {
            throw new IOException("broken pipe");
        });
        assertEquals(1, completions.get());
    }

    @Test
    void doesNothingAfterTheRequestCompleted() {
        answer.onComplete(null);
        answer.send(writes::incrementAndGet);
        answer.onError(null);
        assertEquals(0, writes.get());
        assertEquals(0, completions.get());
    }
}
