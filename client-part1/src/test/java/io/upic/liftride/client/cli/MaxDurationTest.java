package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.flags.UsageException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MaxDurationTest {

    private static RunConfig config(String... more) throws UsageException {
        String[] base = {"-t", "32", "-s", "20000", "-m", "10", "-i", "127.0.0.1:9"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return RunOptions.parse(all).config();
    }

    @ParameterizedTest
    @CsvSource({"10m, 600000", "90s, 90000", "1.5h, 5400000", "500ms, 500", "2 s, 2000", "0, 0", "720h, 2592000000"})
    void aNumberAndAUnitOrZeroIsAccepted(String text, long millis) throws Exception {
        assertEquals(
                Duration.ofMillis(millis),
                config("--max-duration", text).workload().maxDuration());
    }

    @ParameterizedTest
    @ValueSource(strings = {"10", "10x", "-1s", "721h", "m", "0.0s", "1e3s"})
    void anythingElseIsOneLineNamingTheFlagTheRuleAndTheValue(String text) {
        UsageException e = assertThrows(UsageException.class, () -> config("--max-duration", text));
        assertTrue(e.getMessage().startsWith("--max-duration must be " + MaxDuration.RULE + " ("), e.getMessage());
        assertTrue(e.getMessage().endsWith(", got " + text), e.getMessage());
    }

    @Test
    void withoutTheFlagTheLimitIsAnHourPlusTenMillisecondsPerPlannedRequest() throws Exception {
        RunConfig c = config("--baseline", "100");
        assertNull(c.workload().maxDuration());
        long requests = c.workload().loadPlan().totalRequests()
                + c.withThreads(64).workload().loadPlan().totalRequests();
        assertEquals(
                Duration.ofHours(1).plusMillis(10 * (200 + requests)), MaxDuration.of(List.of(c, c.withThreads(64))));
    }

    @Test
    void theOpenModelsDefaultCoversTwiceItsScheduleWhenThatIsLonger() throws Exception {
        // 1 request per second offered: each of the 32 peak threads sends every 32 s, far slower than 100 per second
        RunConfig c = config("--baseline", "0", "--rate", "1");
        Duration d = MaxDuration.of(List.of(c));
        // the peak phase alone: its busiest thread's requests, one every 32 s, twice over
        int busiest = c.workload().loadPlan().peakPhase().assignments().stream()
                .mapToInt(a -> a.requests())
                .max()
                .orElseThrow();
        long peakTwiceMillis = 2L * busiest * 32_000;
        assertTrue(peakTwiceMillis > 10 * c.workload().loadPlan().totalRequests(), "the schedule is the longer");
        assertTrue(d.compareTo(Duration.ofHours(1).plusMillis(peakTwiceMillis)) >= 0, d.toString());
    }

    @Test
    void aGivenLimitIsTheSweepsAndZeroMeansNone() throws Exception {
        RunConfig c = config("--max-duration", "0");
        assertEquals(MaxDuration.NONE, MaxDuration.of(List.of(c, c.withThreads(64))));
        assertEquals("1h37m", MaxDuration.format(Duration.ofMinutes(97)));
        assertEquals("10m00s", MaxDuration.format(Duration.ofMinutes(10)));
        assertEquals("2.5s", MaxDuration.format(Duration.ofMillis(2_500)));
    }
}
