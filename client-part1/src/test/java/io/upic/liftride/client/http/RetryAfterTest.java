package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final long NOW = Instant.parse("2026-11-24T04:00:00Z").toEpochMilli();

    @Test
    void delaySecondsAreMilliseconds() {
        assertEquals(1_000, RetryAfter.millis("1", NOW));
        assertEquals(0, RetryAfter.millis("0", NOW));
        assertEquals(120_000, RetryAfter.millis(" 120 ", NOW));
    }

    @Test
    void anHttpDateIsTheTimeLeftUntilIt() {
        assertEquals(2_000, RetryAfter.millis("Tue, 24 Nov 2026 04:00:02 GMT", NOW));
        String inFiveSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                Instant.ofEpochMilli(NOW + 5_000).atOffset(ZoneOffset.UTC));
        assertEquals(5_000, RetryAfter.millis(inFiveSeconds, NOW));
    }

    @Test
    void aDateInThePastAsksForNoWait() {
        assertEquals(0, RetryAfter.millis("Tue, 24 Nov 2026 03:59:00 GMT", NOW));
    }

    @Test
    void absentOrMalformedValuesNameNoWait() {
        for (String v : new String[] {null, "", " ", "-1", "1.5", "soon", "Tuesday, 24-Nov-26 04:00:02 GMT"}) {
            assertEquals(RetryAfter.NONE, RetryAfter.millis(v, NOW), "\"" + v + "\"");
        }
    }

    @Test
    void hugeDelaysDoNotOverflow() {
        assertEquals(1_000_000_000_000L, RetryAfter.millis("99999999999999999999999", NOW));
        assertEquals(1_000_000_000_000L, RetryAfter.millis("4000000000", NOW));
    }
}
