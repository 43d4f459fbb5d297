package io.upic.liftride.server.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimitsTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty(Limit.RESORTS.property());
        System.clearProperty(Limit.RESORT_DAYS.property());
    }

    @Test
    void defaultsWhenNothingIsGiven() {
        Limits limits = Limits.resolve(name -> null);
        for (Limit limit : Limit.values()) {
            if (System.getenv(limit.env()) == null) {
                assertEquals(limit.defaultValue(), limits.get(limit), limit.name());
            }
        }
    }

    @Test
    void theLaunchersValueWinsOverTheSystemProperty() {
        System.setProperty(Limit.RESORTS.property(), "2000");
        System.setProperty(Limit.RESORT_DAYS.property(), "300");
        Limits limits = Limits.resolve(Map.of(Limit.RESORTS.property(), "50")::get);
        assertEquals(50, limits.get(Limit.RESORTS));
        assertEquals(300, limits.get(Limit.RESORT_DAYS), "the property where the launcher says nothing");
    }

    @Test
    void aBadValueIsOneLineNamingTheFlagPropertyAndVariable() {
        System.setProperty(Limit.RESORT_DAYS.property(), "lots");
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> Limits.resolve(name -> null));
        assertEquals(
                "--max-days / liftride.maxResortDays / LIFTRIDE_MAX_RESORT_DAYS must be an integer in 1..2147483647,"
                        + " got \"lots\"",
                error.getMessage());
    }

    @Test
    void withChecksTheRange() {
        assertEquals(20, Limits.DEFAULTS.with(Limit.RESORTS, 20).count(Limit.RESORTS));
        assertThrows(IllegalArgumentException.class, () -> Limits.DEFAULTS.with(Limit.RESORTS, 9));
        assertThrows(IllegalArgumentException.class, () -> Limits.DEFAULTS.with(Limit.BODY_DEADLINE_MILLIS, 99));
    }
}
