package io.upic.liftride.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.server.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;

/** The store's own messages (GroupCommit, RedisRideStore) map to the cause labels docs/operating.md documents. */
class UnavailableCauseTest {
    private static String label(String message) {
        return UnavailableCause.of(new StoreUnavailableException(message)).label();
    }

    @Test
    void eachStoreMessageHasItsCause() {
        assertEquals("store_overloaded", label("the ride store is overloaded: 65536 rides are waiting to be written"));
        assertEquals(
                "store_queue_timeout", label("the ride store did not take the ride within 2000 ms; it was not stored"));
        assertEquals("store_deadline", label("Redis took the batch after its deadline: not applied"));
        assertEquals("shutting_down", label("the ride store is shutting down"));
        assertEquals("store_refused", label("Redis refused the command: OOM"));
        assertEquals("store_unreachable", label("Redis did not answer: Read timed out"));
        assertEquals("store_unreachable", label("the ride store did not confirm the ride in time"));
        assertEquals("store_other", label("something new"));
    }
}
