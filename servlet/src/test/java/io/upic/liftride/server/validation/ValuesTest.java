package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ValuesTest {
    @Test
    void quotesAndEscapesQuotesBackslashesAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\\u0000\\u001f\\u007f\"", Values.quote("a\"b\\c\u0000\u001f\u007f"));
    }

    @Test
    void cutsLongValuesAfterFortyCharacters() {
        assertEquals("\"" + "x".repeat(40) + "...\"", Values.quote("x".repeat(41)));
        assertEquals("\"" + "x".repeat(40) + "\"", Values.quote("x".repeat(40)));
    }

    @Test
    void neverCutsASurrogatePairInHalf() {
        String skier = "\uD83C\uDFC2"; // one character, two chars
        assertEquals("\"" + "x".repeat(39) + "...\"", Values.quote("x".repeat(39) + skier + "y"));
        assertEquals("\"" + skier + "\"", Values.quote(skier));
    }

    @Test
    void escapesLoneSurrogates() {
        assertEquals("\"\\ud83c\"", Values.quote("\uD83C"));
        assertEquals("\"\\udfc2x\"", Values.quote("\uDFC2x"));
    }

    @Test
    void writesLiteralsUnquoted() {
        assertEquals("12.5", Values.literal("12.5"));
    }

    @Test
    void rejectionsMustBe4xxWithAMessage() {
        assertThrows(IllegalArgumentException.class, () -> new Rejection(500, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Rejection(399, "x"));
        assertThrows(IllegalArgumentException.class, () -> new Rejection(400, ""));
        assertThrows(IllegalArgumentException.class, () -> new Rejection(400, null));
    }

    @Test
    void aRejectedValueThrowsItsRejectionAndAnOkResultHasNone() {
        Result.Rejected rejected =
                assertThrows(Result.Rejected.class, () -> Result.badRequest("x").value());
        assertEquals(Rejection.badRequest("x"), rejected.rejection());
        assertThrows(IllegalStateException.class, () -> Result.ok(1).rejection());
    }

    @Test
    void rulesDescribeThemselves() {
        assertEquals("an integer in 1..60", Rules.LIFT_ID.describe());
        assertEquals("an integer in 1..366 of at most 3 digits", Rules.DAY_ID.describe());
        assertEquals("a 4-digit year (exactly 4 ASCII digits)", Rules.SEASON_ID.describe());
        assertEquals("a 4-digit year in 1000..9999", Rules.RESORT_DAY_SEASON_ID.describe());
        assertThrows(IllegalArgumentException.class, () -> new IntRule("x", -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new IntRule("x", 2, 1));
    }
}
