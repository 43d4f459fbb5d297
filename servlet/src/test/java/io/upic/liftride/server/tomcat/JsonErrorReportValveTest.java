package io.upic.liftride.server.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonErrorReportValveTest {
    @Test
    void keepsTomcatsMessageFor4xx() {
        assertEquals(
                "Invalid URI: [The hexadecimal encoding is invalid]",
                JsonErrorReportValve.message(400, "Invalid URI: [The hexadecimal encoding is invalid]", null));
    }

    @Test
    void fallsBackToTheReasonPhraseWhenTomcatGaveNoMessage() {
        assertEquals("Not Found", JsonErrorReportValve.message(404, null, null));
        assertEquals("Bad Request", JsonErrorReportValve.message(400, " ", null));
        assertEquals("HTTP status 499", JsonErrorReportValve.message(499, null, null));
    }

    @Test
    void neverShowsExceptionTextOr5xxDetails() {
        assertEquals("Bad Request", JsonErrorReportValve.message(400, "secret", new IllegalStateException("secret")));
        assertEquals("Internal Server Error", JsonErrorReportValve.message(500, "secret", null));
    }

    @Test
    void shortensLongMessages() {
        assertEquals("x".repeat(200) + "...", JsonErrorReportValve.message(400, "x".repeat(1000), null));
    }

    @Test
    void escapesForAJsonString() {
        assertEquals("a\\\"b\\\\c\\u0000\\u001f\\u2028d", JsonErrorReportValve.escape("a\"b\\c\u0000\u001f\u2028d"));
    }
}
