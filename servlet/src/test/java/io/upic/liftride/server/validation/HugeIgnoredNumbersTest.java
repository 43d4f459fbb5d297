package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.server.model.LiftRide;
import java.nio.charset.StandardCharsets;
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
}
