package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An integer of any size in an ignored field is valid JSON and leaves the body valid. Gson before
 * 2.15.0 refused numerals whose digits overflow a long to exactly 0 as a "leading zero"
 * (google/gson#3034): schemathesis found a schema-valid SeasonBody with a 35-digit integer refused
 * as malformed JSON.
 */
class HugeIgnoredNumbersTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "184467440737095516160", // 2^64 followed by 0: the long accumulator wraps to 0
                "18446744073709551616000000000000000", // 35 digits, the same wrap
                "-184467440737095516160",
                "99999999999999999999999999999999999",
                "36893488147419103232e3"
            })
    void aHugeIntegerInAnIgnoredFieldLeavesTheBodyValid(String number) {
        String season = "{\"note\":" + number + ",\"year\":\"2023\"}";
        byte[] seasonBytes = season.getBytes(StandardCharsets.UTF_8);
        assertEquals(
                "Ok[2023]",
                JsonBodies.seasonYear(seasonBytes, seasonBytes.length).toString(),
                season);

        String ride = "{\"liftID\":21,\"extra\":[" + number + "],\"time\":217}";
        byte[] rideBytes = ride.getBytes(StandardCharsets.UTF_8);
        assertEquals(
                new LiftRide(21, 217, LiftRide.NO_WAIT_TIME),
                JsonBodies.liftRide(rideBytes, rideBytes.length).value(),
                ride);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0184467440737095516160", "00", "-01"})
    void aNumberWithALeadingZeroIsStillMalformed(String number) {
        String season = "{\"note\":" + number + ",\"year\":\"2023\"}";
        byte[] bytes = season.getBytes(StandardCharsets.UTF_8);
        Result<Integer> result = JsonBodies.seasonYear(bytes, bytes.length);
        assertEquals(400, result.rejection().status(), season);
    }

    /** Gson's reader holds 1,024 characters: a longer number must still be read as the number it is. */
    @ParameterizedTest
    @ValueSource(ints = {1_023, 1_024, 1_025, 2_000, 4_000})
    void aNumberLongerThanGsonsBufferInAnIgnoredFieldLeavesTheBodyValid(int chars) {
        String digits = "1" + "2".repeat(chars - 1);
        for (String number : new String[] {digits, "-" + digits, "0." + digits, "-1.5e" + digits}) {
            String ride = "{\"liftID\":21,\"note\":" + number + ",\"more\":[\"\\\"" + number + "\"],\"time\":217}";
            byte[] bytes = ride.getBytes(StandardCharsets.UTF_8);
            assertEquals(
                    new LiftRide(21, 217, LiftRide.NO_WAIT_TIME),
                    JsonBodies.liftRide(bytes, bytes.length).value(),
                    () -> number.length() + " characters: " + JsonBodies.liftRide(bytes, bytes.length));
        }
    }

    @Test
    void aLongNumberInAKnownFieldIsOutOfRangeNotMalformed() {
        String ride = "{\"liftID\":" + "9".repeat(2_000) + ",\"time\":217}";
        byte[] bytes = ride.getBytes(StandardCharsets.UTF_8);
        Rejection rejection = JsonBodies.liftRide(bytes, bytes.length).rejection();
        assertEquals(400, rejection.status());
        assertTrue(rejection.message().startsWith("liftID must be"), rejection.message());
    }

    @Test
    void aLongMalformedNumberIsStillMalformed() {
        String ride = "{\"liftID\":21,\"note\":0" + "1".repeat(2_000) + ",\"time\":217}";
        byte[] bytes = ride.getBytes(StandardCharsets.UTF_8);
        Rejection rejection = JsonBodies.liftRide(bytes, bytes.length).rejection();
        assertTrue(rejection.message().startsWith("body must be valid JSON"), rejection.message());
    }
}
