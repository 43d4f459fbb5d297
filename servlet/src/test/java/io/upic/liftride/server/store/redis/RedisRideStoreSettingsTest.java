package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RedisRideStoreSettingsTest {
    @Test
    void oneCommitterWhenTheJvmHasOneProcessor() {
        assertEquals(1, RedisRideStore.Settings.committersFor(1));
    }

    @Test
    void theDefaultCommittersWithSeveralProcessors() {
        assertEquals(RedisRideStore.Settings.DEFAULTS.committers(), RedisRideStore.Settings.committersFor(2));
        assertEquals(RedisRideStore.Settings.DEFAULTS.committers(), RedisRideStore.Settings.committersFor(64));
    }

    @Test
    void refusesNoProcessors() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RedisRideStore.Settings.committersFor(0));
        assertEquals("processors < 1: 0", e.getMessage());
    }

    @Test
    void theSystemPropertyOverridesTheProcessorRule() {
        String before = System.getProperty("liftride.redis.committers");
        System.setProperty("liftride.redis.committers", "3");
        try {
            assertEquals(3, RedisRideStore.Settings.fromSystemProperties().committers());
        } finally {
            if (before == null) {
                System.clearProperty("liftride.redis.committers");
            } else {
                System.setProperty("liftride.redis.committers", before);
            }
        }
    }
}
