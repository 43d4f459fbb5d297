package io.upic.liftride.client.prediction;

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

/** The runs' CPU per request stored per key, found again only under that key, and reused while fresh. */
class CalibrationStoreTest {

    private static final Instant AT = Instant.parse("2026-11-27T20:00:00Z");
    private static final CalibrationStore.Entry ENTRY = new CalibrationStore.Entry(38_100, 5e9, AT);

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

        Files.writeString(file, key + "\n38100.0 x " + AT + "\n");
        assertEquals(Optional.empty(), store.find(key), "a number that does not parse");

        Files.writeString(file, "another key\n38100.0 5.0E9 " + AT + "\n");
        assertEquals(Optional.empty(), store.find(key), "another key with the same file name");
    }

    @Test
    void theNoneStoreSavesNothingAndFindsNothing() {
        String key = CalibrationStore.key("embedded", "sdk");
        assertFalse(CalibrationStore.NONE.save(key, ENTRY));
        assertEquals(Optional.empty(), CalibrationStore.NONE.find(key));
    }

    @Test
    void aStoredEntryIsReusedForAWeek() {
        assertTrue(ENTRY.reusable(AT.plus(Duration.ofDays(7))));
        assertFalse(ENTRY.reusable(AT.plus(Duration.ofDays(7)).plusSeconds(1)), "older than a week");
        assertFalse(ENTRY.reusable(AT.minus(Duration.ofMinutes(1))), "from the future: a clock moved");
    }
}
