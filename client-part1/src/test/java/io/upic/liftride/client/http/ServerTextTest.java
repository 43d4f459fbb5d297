package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ServerTextTest {

    @Test
    void escapeSequencesCarriageReturnsAndBellsBecomeVisibleEscapes() {
        assertEquals(
                "\\x1b[2J\\x1b[1A\\x0dReconciliation: OK\\x07\\x0a",
                ServerText.clean("\u001b[2J\u001b[1A\rReconciliation: OK\u0007\n"));
    }

    @Test
    void c1ControlsBidiOverridesAndZeroWidthCharactersBecomeVisibleEscapes() {
        assertEquals("\\x9b31m \\u202eKO \\u200b \\u2028", ServerText.clean("\u009b31m \u202eKO \u200b \u2028"));
    }

    @Test
    void ordinaryTextIncludingNonAsciiLettersIsKept() {
        String text = "Unexpected status line: HTTP/1.1 2xx Créé, 5 µs {\"message\":\"ok\"}";
        assertEquals(text, ServerText.clean(text));
        assertNull(ServerText.clean(null));
    }

    @Test
    void textLongerThanTheLimitIsCutWithTheCountOfWhatWasLeftOut() {
        String cleaned = ServerText.clean("a".repeat(ServerText.MAX_CHARS + 50));
        assertEquals("a".repeat(ServerText.MAX_CHARS) + "...(50 more characters)", cleaned);
    }

    @Test
    void aStackTraceShowsEachMessageOfTheChainCleanedAndItsFrames() {
        IOException cause = new IOException("Unexpected status line: \u001b[2J");
        IllegalStateException e = new IllegalStateException("SDK failed \u0007", cause);
        String trace = ServerText.stackTrace(e);
        assertTrue(trace.startsWith("java.lang.IllegalStateException: SDK failed \\x07\n\tat "), trace);
        assertTrue(trace.contains("\nCaused by: java.io.IOException: Unexpected status line: \\x1b[2J\n\tat "), trace);
        assertTrue(trace.contains(ServerTextTest.class.getName()), trace);
        assertFalse(trace.chars().anyMatch(c -> c == 0x1b || c == 0x07), trace);
    }
}
