package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ExitCodesTest {

    @Test
    void aDeadlineOutranksAFailureWhichOutranksUncheckedCountsWhichOutrankAFailedThreshold() {
        int[] order = {ExitCodes.DEADLINE, ExitCodes.FAILED, ExitCodes.UNCHECKED, 3, ExitCodes.OK};
        for (int i = 0; i < order.length; i++) {
            for (int j = i; j < order.length; j++) {
                assertEquals(order[i], ExitCodes.worse(order[i], order[j]), order[i] + " vs " + order[j]);
                assertEquals(order[i], ExitCodes.worse(order[j], order[i]), order[j] + " vs " + order[i]);
            }
        }
    }

    @Test
    void aCodeNoRunEndsWithIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ExitCodes.worse(0, 2));
    }
}
