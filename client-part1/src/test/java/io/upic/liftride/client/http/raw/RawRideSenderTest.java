package io.upic.liftride.client.http.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawRideSenderTest {

    @Test
    void writesIntegersLikeIntegerToString() {
        int[] values = {0, 1, 9, 10, 99, 100, 420, 2022, 100_000, -1, -10, Integer.MAX_VALUE, Integer.MIN_VALUE};
        for (int v : values) {
            byte[] b = new byte[16];
            int end = RawRideSender.putInt(b, 3, v);
            assertEquals(Integer.toString(v), new String(b, 3, end - 3, StandardCharsets.US_ASCII), "value " + v);
            assertEquals(Integer.toString(v).length(), RawRideSender.digits(v), "digits of " + v);
        }
    }
}
