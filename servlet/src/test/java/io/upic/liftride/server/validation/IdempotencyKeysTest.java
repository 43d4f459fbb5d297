package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeysTest {

    @Test
    void noHeaderIsNoKey() {
        assertEquals(Optional.empty(), IdempotencyKeys.parse(null).value());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"k", "!", "~", "3f2b9c1e-7d4a-4e8b-9c2d-1a2b3c4d5e6f", "run7-thread12-seq99", "a\"b\\c{}[]"})
    void oneTo128VisibleAsciiCharactersAreTheKey(String key) {
        assertEquals(Optional.of(key), IdempotencyKeys.parse(key).value());
    }

    @Test
    void exactly128CharactersIsAKey() {
        String key = "x".repeat(128);
        assertEquals(Optional.of(key), IdempotencyKeys.parse(key).value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a b", "key\t", "caf\u00e9", "\u007f", "\u0000", "\ud83d\ude00"})
    void anEmptyKeyOrOneWithSpacesControlOrNonAsciiCharactersIsA400(String key) {
        Result<Optional<String>> result = IdempotencyKeys.parse(key);
        assertFalse(result.isOk(), key);
        assertEquals(400, result.rejection().status());
        assertEquals(
                "Idempotency-Key must be 1..128 visible ASCII characters, got " + Values.quote(key),
                result.rejection().message());
    }

    @Test
    void a129CharacterKeyIsA400ThatSaysHowLongItWas() {
        Result<Optional<String>> result = IdempotencyKeys.parse("y".repeat(129));
        assertEquals(
                "Idempotency-Key must be 1..128 visible ASCII characters, got " + Values.quote("y".repeat(129))
                        + " (129 characters)",
                result.rejection().message());
    }

    @Test
    void oneHeaderIsItsKeyAndNoneIsNoKey() {
        assertEquals(
                Optional.of("k1"),
                IdempotencyKeys.parseHeaders(Collections.enumeration(List.of("k1")))
                        .value());
        assertEquals(
                Optional.empty(),
                IdempotencyKeys.parseHeaders(Collections.emptyEnumeration()).value());
        assertEquals(
                400,
                IdempotencyKeys.parseHeaders(Collections.enumeration(List.of("a b")))
                        .rejection()
                        .status());
    }

    @Test
    void aRepeatedHeaderIsA400EvenWhenBothKeysAreEqual() {
        Result<Optional<String>> two = IdempotencyKeys.parseHeaders(Collections.enumeration(List.of("k1", "k2")));
        assertEquals(400, two.rejection().status());
        assertEquals(
                "Idempotency-Key must be sent once, got 2 of them",
                two.rejection().message());
        assertEquals(
                "Idempotency-Key must be sent once, got 2 of them",
                IdempotencyKeys.parseHeaders(Collections.enumeration(List.of("k", "k")))
                        .rejection()
                        .message());
        assertEquals(
                "Idempotency-Key must be sent once, got more than 100 of them",
                IdempotencyKeys.parseHeaders(Collections.enumeration(Collections.nCopies(500, "k")))
                        .rejection()
                        .message());
    }
}
