package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.upic.liftride.server.model.LiftRide;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonBodiesTest {
    private static void assertRejected(Result<?> result, String message) {
        assertFalse(result.isOk(), () -> "expected a rejection, got " + result);
        assertEquals(400, result.rejection().status());
        assertEquals(message, result.rejection().message());
    }

    private static Result<LiftRide> ride(String json) {
        return JsonBodies.liftRide(json);
    }

    @Test
    void acceptsARideWithWaitTime() {
        assertEquals(
                new LiftRide(21, 217, 3),
                ride("{\"liftID\": 21, \"time\": 217, \"waitTime\": 3}").value());
    }

    @Test
    void acceptsARideWithoutWaitTimeBecauseItIsOptional() {
        LiftRide ride = ride("{\"time\":217,\"liftID\":21}").value();
        assertEquals(new LiftRide(21, 217, LiftRide.NO_WAIT_TIME), ride);
    }

    @Test
    void acceptsTheLimitsOfEveryRange() {
        assertEquals(
                new LiftRide(1, 1, 0),
                ride("{\"liftID\":1,\"time\":1,\"waitTime\":0}").value());
        assertEquals(
                new LiftRide(60, 420, 10),
                ride("{\"liftID\":60,\"time\":420,\"waitTime\":10}").value());
    }

    @Test
    void ignoresUnknownFieldsOfAnyShape() {
        assertEquals(
                new LiftRide(5, 6, LiftRide.NO_WAIT_TIME),
                ride("{\"skierID\":\"x\",\"liftID\":5,\"meta\":{\"a\":[1,2,{\"b\":null}]},\"time\":6,\"ok\":true}")
                        .value());
    }

    @Test
    void acceptsSurroundingWhitespaceAndEscapedFieldNames() {
        assertEquals(
                new LiftRide(5, 6, LiftRide.NO_WAIT_TIME),
                ride(" \r\n\t{\"\\u006ciftID\":5,\"time\":6}\n ").value());
    }

    @Test
    void readsNegativeZeroAsZero() {
        assertEquals(
                0, ride("{\"liftID\":1,\"time\":2,\"waitTime\":-0}").value().waitTime());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{\"liftID\":61,\"time\":1}            | liftID must be an integer in 1..60, got 61",
                "{\"liftID\":0,\"time\":1}             | liftID must be an integer in 1..60, got 0",
                "{\"liftID\":-1,\"time\":1}            | liftID must be an integer in 1..60, got -1",
                "{\"liftID\":-0,\"time\":1}            | liftID must be an integer in 1..60, got -0",
                "{\"liftID\":1,\"time\":0}             | time must be an integer in 1..420, got 0",
                "{\"liftID\":1,\"time\":421}           | time must be an integer in 1..420, got 421",
                "{\"liftID\":1,\"time\":1,\"waitTime\":11} | waitTime must be an integer in 0..10, got 11",
                "{\"liftID\":1,\"time\":1,\"waitTime\":-1} | waitTime must be an integer in 0..10, got -1",
                "{\"liftID\":2147483648,\"time\":1}    | liftID must be an integer in 1..60, got 2147483648",
                "{\"liftID\":99999999999999999999999,\"time\":1} | liftID must be an integer in 1..60, got 99999999999999999999999",
            })
    void rejectsIntegersOutOfRange(String json, String message) {
        assertRejected(ride(json), message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{\"liftID\":\"12\",\"time\":1}        | liftID must be an integer in 1..60, got \"12\" (a string)",
                "{\"liftID\":12.5,\"time\":1}          | liftID must be an integer in 1..60, got 12.5",
                "{\"liftID\":12.0,\"time\":1}          | liftID must be an integer in 1..60, got 12.0",
                "{\"liftID\":1e1,\"time\":1}           | liftID must be an integer in 1..60, got 1e1",
                "{\"liftID\":1E+1,\"time\":1}          | liftID must be an integer in 1..60, got 1E+1",
                "{\"liftID\":true,\"time\":1}          | liftID must be an integer in 1..60, got true (a boolean)",
                "{\"liftID\":null,\"time\":1}          | liftID must be an integer in 1..60, got null",
                "{\"liftID\":[1],\"time\":1}           | liftID must be an integer in 1..60, got an array",
                "{\"liftID\":{\"v\":1},\"time\":1}     | liftID must be an integer in 1..60, got an object",
                "{\"liftID\":1,\"time\":\"217\"}       | time must be an integer in 1..420, got \"217\" (a string)",
                "{\"liftID\":1,\"time\":false}         | time must be an integer in 1..420, got false (a boolean)",
                "{\"liftID\":1,\"time\":1,\"waitTime\":null} | waitTime must be an integer in 0..10, got null",
                "{\"liftID\":1,\"time\":1,\"waitTime\":2.5}  | waitTime must be an integer in 0..10, got 2.5",
            })
    void rejectsWrongJsonTypesNamingTheField(String json, String message) {
        assertRejected(ride(json), message);
    }

    @Test
    void rejectsMissingRequiredFields() {
        assertRejected(ride("{\"time\":1}"), "liftID is required (an integer in 1..60)");
        assertRejected(ride("{\"liftID\":1}"), "time is required (an integer in 1..420)");
        assertRejected(ride("{}"), "liftID is required (an integer in 1..60)");
        assertRejected(ride("{\"waitTime\":1,\"LIFTID\":1,\"Time\":1}"), "liftID is required (an integer in 1..60)");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", " ", "\r\n\t "})
    void rejectsAnEmptyBody(String json) {
        assertRejected(
                ride(json), "body is required: a JSON object such as {\"liftID\": 21, \"time\": 217, \"waitTime\": 3}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "[]                 | body must be a JSON object, got an array",
                "[{\"liftID\":1,\"time\":1}] | body must be a JSON object, got an array",
                "\"x\"              | body must be a JSON object, got \"x\" (a string)",
                "42                 | body must be a JSON object, got 42 (a number)",
                "true               | body must be a JSON object, got true (a boolean)",
                "null               | body must be a JSON object, got null",
            })
    void rejectsJsonThatIsNotAnObject(String json, String message) {
        assertRejected(ride(json), message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{liftID:1,\"time\":1}         | body must be valid JSON: malformed JSON at line 1 column 3 path $.",
                "{'liftID':1,'time':1}         | body must be valid JSON: malformed JSON at line 1 column 3 path $.",
                "{\"liftID\":NaN,\"time\":1}   | body must be valid JSON: malformed JSON at line 1 column 11 path $.liftID",
                "{\"liftID\":Infinity,\"time\":1} | body must be valid JSON: malformed JSON at line 1 column 11 path $.liftID",
                "{\"liftID\":01,\"time\":1}    | body must be valid JSON: malformed JSON at line 1 column 11 path $.liftID",
                "{\"liftID\":1 /*c*/,\"time\":1} | body must be valid JSON: malformed JSON at line 1 column 14 path $.liftID",
                "{\"liftID\":1,\"time\":1,}    | body must be valid JSON: Expected name at line 1 column 23 path $.time",
                "{\"liftID\":1,\"time\":1      | body must be valid JSON: End of input at line 1 column 21 path $.time",
                "{                             | body must be valid JSON: End of input at line 1 column 2 path $.",
                "{\"a\":\"\\x\"}               | body must be valid JSON: Invalid escape sequence at line 1 column 9 path $.a",
            })
    void rejectsMalformedJsonThatLenientParsingWouldAccept(String json, String message) {
        assertRejected(ride(json), message);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{\"liftID\":1,\"time\":1} x", "{\"liftID\":1,\"time\":1}{}", "{\"liftID\":1,\"time\":1}}",
                "{\"liftID\":1,\"time\":1};", "{\"liftID\":1,\"time\":1}\u0000", "{\"liftID\":1,\"time\":1} // c"
            })
    void rejectsTrailingGarbage(String json) {
        assertRejected(ride(json), "body must be one JSON object with nothing after it");
    }

    @Test
    void rejectsUnescapedControlCharactersInStringsEvenInIgnoredFields() {
        assertRejected(
                ride("{\"liftID\":1,\"time\":1,\"note\":\"a\tb\"}"),
                "body must be valid JSON: Unescaped control characters (\\u0000-\\u001F) are not allowed in strict mode at line 1 column 30 path $.note");
    }

    @Test
    void rejectsAFieldGivenTwice() {
        assertRejected(
                ride("{\"liftID\":1,\"time\":1,\"liftID\":2}"), "body must not repeat a field, got \"liftID\" twice");
        assertRejected(
                ride("{\"liftID\":1,\"time\":1,\"time\":1}"), "body must not repeat a field, got \"time\" twice");
        assertRejected(
                ride("{\"liftID\":1,\"time\":1,\"waitTime\":1,\"waitTime\":1}"),
                "body must not repeat a field, got \"waitTime\" twice");
        assertRejected(
                ride("{\"liftID\":1,\"x\":1,\"time\":1,\"x\":2}"), "body must not repeat a field, got \"x\" twice");
    }

    @Test
    void rejectsDeepNestingWithoutOverflowingTheStack() {
        assertRejected(ride("[".repeat(10_000)), "body must be a JSON object, got an array");
        assertRejected(ride("{\"liftID\":" + "[".repeat(10_000)), "liftID must be an integer in 1..60, got an array");
        assertRejected(
                ride("{\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + ",\"liftID\":1,\"time\":1}"),
                "body must not nest arrays or objects more than 32 levels deep");
        assertRejected(
                ride("{\"x\":" + "{\"a\":".repeat(40) + "1" + "}".repeat(40) + ",\"liftID\":1,\"time\":1}"),
                "body must not nest arrays or objects more than 32 levels deep");
    }

    @Test
    void acceptsNestingUpToTheLimitInIgnoredFields() {
        String nested = "[".repeat(Rules.MAX_JSON_NESTING) + "]".repeat(Rules.MAX_JSON_NESTING);
        assertEquals(
                new LiftRide(1, 1, LiftRide.NO_WAIT_TIME),
                ride("{\"x\":" + nested + ",\"liftID\":1,\"time\":1}").value());
    }

    @Test
    void decodesUtf8BodiesStrictly() {
        byte[] valid = "{\"liftID\":1,\"time\":1,\"name\":\"Zoë ⛷\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                new LiftRide(1, 1, LiftRide.NO_WAIT_TIME),
                JsonBodies.liftRide(valid, valid.length).value());
        byte[] invalid = {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'};
        assertRejected(JsonBodies.liftRide(invalid, invalid.length), "body must be UTF-8 encoded JSON");
    }

    @Test
    void readsOnlyTheGivenLengthOfTheBuffer() {
        byte[] buffer = "{\"liftID\":1,\"time\":1}garbage".getBytes(StandardCharsets.US_ASCII);
        assertEquals(
                new LiftRide(1, 1, LiftRide.NO_WAIT_TIME),
                JsonBodies.liftRide(buffer, 21).value());
    }

    @Test
    void acceptsASeasonYearString() {
        assertEquals(2019, JsonBodies.seasonYear("{\"year\":\"2019\"}").value());
        assertEquals(
                0, JsonBodies.seasonYear("{\"year\":\"0000\",\"other\":[1]}").value());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{\"year\":2019}          | year must be a 4-digit year (exactly 4 ASCII digits), got 2019 (a number)",
                "{\"year\":\"19\"}        | year must be a 4-digit year (exactly 4 ASCII digits), got \"19\"",
                "{\"year\":\"20190\"}     | year must be a 4-digit year (exactly 4 ASCII digits), got \"20190\"",
                "{\"year\":\"201x\"}      | year must be a 4-digit year (exactly 4 ASCII digits), got \"201x\"",
                "{\"year\":null}          | year must be a 4-digit year (exactly 4 ASCII digits), got null",
                "{\"year\":true}          | year must be a 4-digit year (exactly 4 ASCII digits), got true (a boolean)",
                "{\"year\":[\"2019\"]}    | year must be a 4-digit year (exactly 4 ASCII digits), got an array",
                "{}                       | year is required (a 4-digit year (exactly 4 ASCII digits))",
                "{\"year\":\"2019\",\"year\":\"2020\"} | body must not repeat a field, got \"year\" twice",
                "[\"2019\"]               | body must be a JSON object, got an array",
                "{\"year\":\"2019\"} 1    | body must be one JSON object with nothing after it",
                "{year:\"2019\"}          | body must be valid JSON: malformed JSON at line 1 column 3 path $.",
            })
    void rejectsInvalidSeasonBodies(String json, String message) {
        assertRejected(JsonBodies.seasonYear(json), message);
    }

    @Test
    void rejectsAnEmptySeasonBody() {
        assertRejected(JsonBodies.seasonYear(""), "body is required: a JSON object such as {\"year\": \"2019\"}");
    }
}
