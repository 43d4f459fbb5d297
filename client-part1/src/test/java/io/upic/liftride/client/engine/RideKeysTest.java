package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.http.RideSender;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RideKeysTest {
    @Test
    void sendsOneKeyPerRideAndTheSameOnEveryRetryOfIt() {
        List<String> keys = new ArrayList<>();
        int[] answers = {503, 503, 201, 201, 500, 201};
        RideSender script = (resort, season, day, skier, lift, minute, wait, key) -> {
            keys.add(key);
            return answers[keys.size() - 1];
        };
        RetryingSender sender = new RetryingSender(
                script,
                new RetryPolicy(6, 0, 0),
                AttemptRecorder.NONE,
                () -> false,
                SilentServerDetector.never(),
                new RideKeys("00ff00ff00ff00ff", "1.17"));
        assertEquals(201, sender.send(1, 2022, 1, 5, 10, 100, 0));
        assertEquals(201, sender.send(1, 2022, 1, 6, 10, 100, 0));
        assertEquals(201, sender.send(1, 2022, 1, 7, 10, 100, 0));
        assertEquals(
                List.of(
                        "00ff00ff00ff00ff-1.17-0",
                        "00ff00ff00ff00ff-1.17-0",
                        "00ff00ff00ff00ff-1.17-0",
                        "00ff00ff00ff00ff-1.17-1",
                        "00ff00ff00ff00ff-1.17-2",
                        "00ff00ff00ff00ff-1.17-2"),
                keys);
    }

    @Test
    void drawsAFreshRunIdEveryTimeSoRunsNeverShareKeys() {
        HashSet<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = RideKeys.newRunId();
            assertTrue(id.matches("[0-9a-f]{16}"), id);
            ids.add(id);
        }
        assertEquals(1000, ids.size());
        assertNotEquals(new RideKeys("a", "0.1").next(), new RideKeys("a", "0.2").next());
    }

    @Test
    void keepsKeysWithinWhatTheServerAccepts() {
        String longest = new RideKeys(RideKeys.newRunId(), "2.1023").next() + Long.MAX_VALUE;
        assertTrue(longest.length() <= 128 && longest.chars().allMatch(c -> c >= '!' && c <= '~'), longest);
    }
}
