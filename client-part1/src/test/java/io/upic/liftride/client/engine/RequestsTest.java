package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RequestsTest {

    @Test
    void accountsAddFieldByFieldAndNoneIsTheStartOfAFold() {
        Requests a = new Requests(10, 7, 2, 1, 3, 12);
        Requests b = new Requests(5, 5, 0, 0, 1, 6);
        assertEquals(new Requests(15, 12, 2, 1, 4, 18), a.plus(b));
        assertEquals(a, Requests.NONE.plus(a));
    }

    @Test
    void anAccountThatDoesNotBalanceIsRefusedNamingItsNumbers() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Requests(10, 5, 1, 1, 0, 6));
        assertEquals("planned != successful + failed + notSent: 10 != 5 + 1 + 1", e.getMessage());
    }

    @Test
    void ofCountsWhatNeitherSucceededNorFailedAsNotSent() {
        assertEquals(new Requests(10, 6, 1, 3, 2, 9), Requests.of(10, 6, 1, 2, 9));
    }

    @Test
    void throughputIsSuccessesPerSecondOfTheWallTimeAndZeroWithoutOne() {
        Requests r = Requests.of(3_000, 2_000, 1_000, 0, 3_000);
        assertEquals(1_000.0, r.throughputPerSecond(2_000_000_000L), 1e-9);
        assertEquals(0.0, r.throughputPerSecond(0));
        assertEquals(3_000, r.finished());
    }

    @Test
    void allSucceededOnlyWhenEveryPlannedRequestGotIts201() {
        assertTrue(Requests.of(4, 4, 0, 1, 5).allSucceeded());
        assertFalse(Requests.of(4, 3, 1, 0, 4).allSucceeded());
        assertFalse(Requests.of(4, 3, 0, 0, 3).allSucceeded());
    }
}
