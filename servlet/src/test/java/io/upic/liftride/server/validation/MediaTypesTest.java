package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MediaTypesTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8",
                "application/json ; charset=\"utf-8\"", "application/json;charset=utf8", "application/json; q=1"
            })
    void acceptsJsonWithOrWithoutAUtf8Charset(String contentType) {
        assertNull(MediaTypes.checkJson(contentType));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "text/plain                        | Content-Type must be application/json, got \"text/plain\"",
                "application/x-www-form-urlencoded | Content-Type must be application/json, got \"application/x-www-form-urlencoded\"",
                "application/jsonx                 | Content-Type must be application/json, got \"application/jsonx\"",
                "application/problem+json          | Content-Type must be application/json, got \"application/problem+json\"",
                "application/json; charset=latin1  | Content-Type charset must be UTF-8, got \"latin1\"",
                "application/json;charset=utf-16   | Content-Type charset must be UTF-8, got \"utf-16\"",
            })
    void rejectsOtherMediaTypesWith415(String contentType, String message) {
        assertEquals(new Rejection(415, message), MediaTypes.checkJson(contentType));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "  "})
    void rejectsABlankContentType(String contentType) {
        assertEquals(
                new Rejection(415, "Content-Type must be application/json, got none"),
                MediaTypes.checkJson(contentType));
    }

    @org.junit.jupiter.api.Test
    void rejectsAMissingContentType() {
        assertEquals(new Rejection(415, "Content-Type must be application/json, got none"), MediaTypes.checkJson(null));
    }
}
