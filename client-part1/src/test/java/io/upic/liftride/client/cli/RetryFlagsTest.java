package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.flags.UsageException;
import org.junit.jupiter.api.Test;

/** --backoff-ms, --backoff-max-ms and --give-up-after-ms: the retry policy from the command line. */
class RetryFlagsTest {

    private static RetryPolicy policy(String... flags) throws UsageException {
        String[] args = new String[flags.length + 4];
        args[0] = "-t";
        args[1] = "8";
        args[2] = "-s";
        args[3] = "100";
        System.arraycopy(flags, 0, args, 4, flags.length);
        return RunOptions.parse(args).config().target().retryPolicy();
    }

    private static String error(String... flags) {
        return assertThrows(UsageException.class, () -> policy(flags)).getMessage();
    }

    @Test
    void withoutTheFlagsThePolicyIsTheDocumentedDefault() throws Exception {
        assertEquals(RetryPolicy.DEFAULT, policy());
        assertEquals(new RetryPolicy(6, 10, 1_000, 15_000), policy());
    }

    @Test
    void theFlagsSetBackoffAndGiveUpButNeverTheSixAttempts() throws Exception {
        assertEquals(
                new RetryPolicy(6, 200, 2_000, 0),
                policy("--backoff-ms", "200", "--backoff-max-ms", "2000", "--give-up-after-ms", "0"));
        assertEquals(new RetryPolicy(6, 1, 1_000, 15_000), policy("--backoff-ms", "1"));
        assertEquals(
                new RetryPolicy(6, 10, 10, 60_000), policy("--backoff-max-ms", "10", "--give-up-after-ms", "60000"));
        assertEquals(new RetryPolicy(6, 0, 0, 15_000), policy("--backoff-ms", "0", "--backoff-max-ms", "0"));
    }

    @Test
    void aBaseAboveTheDefaultCapRaisesTheCapWithItRatherThanFailing() throws Exception {
        assertEquals(new RetryPolicy(6, 5_000, 5_000, 15_000), policy("--backoff-ms", "5000"));
    }

    @Test
    void badValuesGiveOneLineNamingTheFlagTheValueAndTheRange() {
        assertEquals(
                "--backoff-max-ms must be at least --backoff-ms (100), got 50",
                error("--backoff-ms", "100", "--backoff-max-ms", "50"));
        assertEquals("--backoff-max-ms must be at least --backoff-ms (10), got 5", error("--backoff-max-ms", "5"));
        assertEquals("--backoff-ms must be an integer in 0..60000, got -1", error("--backoff-ms", "-1"));
        assertEquals(
                "--backoff-max-ms must be an integer in 0..600000, got 600001", error("--backoff-max-ms", "600001"));
        assertEquals("--give-up-after-ms must be an integer in 0..3600000, got 1h", error("--give-up-after-ms", "1h"));
        assertEquals("--give-up-after-ms needs a value (an integer in 0..3600000)", error("--give-up-after-ms"));
    }

    @Test
    void theUsageListsTheFlagsWithTheirDefaults() {
        String usage = RunOptions.usage("client").replaceAll("\\s+", " "); // unwrapped
        assertTrue(usage.contains("--backoff-ms <MS>"), usage);
        assertTrue(usage.contains("--backoff-max-ms <MS>"), usage);
        assertTrue(usage.contains("--give-up-after-ms <MS>"), usage);
        assertTrue(usage.contains("default 15000"), usage);
    }
}
