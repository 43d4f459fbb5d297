package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatingSettingsTest {
    private static OperatingSettings read(Map<String, String> values) {
        return OperatingSettings.read(values::get);
    }

    @Test
    void nothingSetGivesTheDocumentedDefaults() {
        OperatingSettings settings = read(Map.of());
        assertEquals(Duration.ofSeconds(2), settings.drainGrace());
        assertEquals(Duration.ofSeconds(30), settings.drainMax());
        assertEquals(Duration.ofMillis(250), settings.pingDeadline());
        assertTrue(settings.metrics());
    }

    @Test
    void eachSettingIsReadUnderItsOwnName() {
        OperatingSettings settings = read(Map.of(
                "liftride.drain.graceMillis", "1500",
                "liftride.drain.maxMillis", "9000",
                "liftride.health.pingMillis", "100",
                "liftride.metrics", "OFF"));
        assertEquals(Duration.ofMillis(1500), settings.drainGrace());
        assertEquals(Duration.ofMillis(9000), settings.drainMax());
        assertEquals(Duration.ofMillis(100), settings.pingDeadline());
        assertFalse(settings.metrics());
    }

    @Test
    void aBadValueIsRefusedNamingTheSettingAndTheValue() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> read(Map.of("liftride.drain.graceMillis", "two seconds")));
        assertEquals(
                "liftride.drain.graceMillis must be an integer in 0..3600000, got \"two seconds\"", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> read(Map.of("liftride.metrics", "yes")));
        assertEquals("liftride.metrics must be on or off, got \"yes\"", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> read(Map.of("liftride.health.pingMillis", "0")));
        assertEquals("liftride.health.pingMillis < 1: 0", e.getMessage());
    }

    @Test
    void theMaximumCannotBeShorterThanTheGracePeriod() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> read(Map.of("liftride.drain.graceMillis", "5000", "liftride.drain.maxMillis", "4000")));
        assertEquals("liftride.drain.maxMillis < liftride.drain.graceMillis: 4000 < 5000", e.getMessage());
    }

    @Test
    void aContextParameterWinsOverTheSystemProperty() {
        System.setProperty("liftride.drain.graceMillis", "700");
        try {
            assertEquals(
                    "700", OperatingSettings.contextThenSystem(name -> null).apply("liftride.drain.graceMillis"));
            assertEquals("0", OperatingSettings.contextThenSystem(name -> "0").apply("liftride.drain.graceMillis"));
        } finally {
            System.clearProperty("liftride.drain.graceMillis");
        }
    }
}
