package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full calibration stored per key, found again only under that key, and reused while fresh. */
class CalibrationStoreTest {

    private static final Instant AT = Instant.parse("2026-11-27T20:00:00Z");
    private static final CalibrationStore.Entry ENTRY = new CalibrationStore.Entry(38_100, 82_200, 62_000, AT);

    @TempDir
    Path dir;

    @Test
    void findsWhatItSavedUnderTheSameKeyOnly() {
        CalibrationStore store = new CalibrationStore(dir.resolve("calibration"));
        String key = CalibrationStore.key("embedded", "sdk");

        assertEquals(Optional.empty(), store.find(key), "nothing stored yet");
        assertTrue(store.save(key, ENTRY));

        assertEquals(Optional.of(ENTRY), new CalibrationStore(dir.resolve("calibration")).find(key));
        assertEquals(Optional.empty(), store.find(CalibrationStore.key("embedded", "raw")), "another transport");
    }

    @Test
    void aKeyNamesTheServerAndTheTransport() {
        String key = CalibrationStore.key("http://10.0.0.7:8080/liftride", "raw");
        assertTrue(key.endsWith(" http://10.0.0.7:8080/liftride raw"), key);
        assertTrue(key.contains(Runtime.getRuntime().availableProcessors() + "cpu"), key);
        assertNotEquals(key, CalibrationStore.key("embedded", "raw"));
    }

    @Test
    void aFileOfAnotherKeyOrUnreadableFindsNothing() throws IOException {
        CalibrationStore store = new CalibrationStore(dir);
        String key = CalibrationStore.key("embedded", "sdk");
        assertTrue(store.save(key, ENTRY));
        Path file = store.file(key);

        Files.writeString(file, key + "\n38100.0 x 62000.0 " + AT + "\n");
        assertEquals(Optional.empty(), store.find(key), "a number that does not parse");

        Files.writeString(file, "another key\n38100.0 82200.0 62000.0 " + AT + "\n");
        assertEquals(Optional.empty(), store.find(key), "another key with the same file name");
    }

    @Test
    void theNoneStoreSavesNothingAndFindsNothing() {
        String key = CalibrationStore.key("embedded", "sdk");
        assertFalse(CalibrationStore.NONE.save(key, ENTRY));
        assertEquals(Optional.empty(), CalibrationStore.NONE.find(key));
    }

    @Test
    void aStoredCalibrationIsReusedForADayWhileTheBaselineStaysWithinAQuarterOfItsW() {
        assertTrue(ENTRY.reusable(62_000, AT.plus(Duration.ofHours(23))));
        assertTrue(ENTRY.reusable(70_000, AT), "W 13% higher");
        assertFalse(ENTRY.reusable(62_000, AT.plus(Duration.ofHours(25))), "older than a day");
        assertFalse(ENTRY.reusable(62_000, AT.minus(Duration.ofMinutes(1))), "from the future: a clock moved");
        assertFalse(ENTRY.reusable(90_000, AT), "W 31% higher: another path or server");
        assertFalse(ENTRY.reusable(45_000, AT), "W 38% lower");
    }

    @Test
    void theDelayFollowsTheBaselinesChangeOfWAndIsAtLeastWLessD() {
        assertEquals(82_200, ENTRY.delayNanosAt(62_000), 1e-9);
        assertEquals(92_200, ENTRY.delayNanosAt(72_000), 1e-9, "the round trip grew by 10 us");
        CalibrationStore.Entry wan = new CalibrationStore.Entry(150_000, 42_000_000, 42_600_000, AT);
        assertEquals(44_000_000 - 150_000, wan.delayNanosAt(44_000_000), 1e-6, "W - D when that is larger");
    }
}
