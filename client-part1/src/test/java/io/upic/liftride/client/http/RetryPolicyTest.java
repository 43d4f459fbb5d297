package io.upic.liftride.client.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void defaultIsSixAttemptsWithTenMillisecondsDoublingCappedAtOneSecond() {
        RetryPolicy p = RetryPolicy.DEFAULT;
        assertEquals(6, p.maxAttempts());
        assertEquals(10_000_000L, p.backoffCapNanos(1));
        assertEquals(20_000_000L, p.backoffCapNanos(2));
        assertEquals(160_000_000L, p.backoffCapNanos(5));
        assertEquals(1_000_000_000L, p.backoffCapNanos(8));
        assertEquals(1_000_000_000L, p.backoffCapNanos(60)); // no overflow for absurd retry numbers
    }

    @Test
    void defaultWaits155To310MillisecondsPerRequestAndGivesUpOnASilentServerAfter15Seconds() {
        // 5 retries: caps 10 + 20 + 40 + 80 + 160 ms, each jittered to [cap/2, cap]
        assertEquals(155_000_000L, RetryPolicy.DEFAULT.minTotalBackoffNanos());
        assertEquals(310_000_000L, RetryPolicy.DEFAULT.maxTotalBackoffNanos());
        assertEquals(15_000, RetryPolicy.DEFAULT.giveUpAfterMillis());
        assertEquals(0, new RetryPolicy(6, 10, 1_000).giveUpAfterMillis(), "the short form never gives up");
    }

    @Test
    void aTwoSecondOutageNeedsAbout130MillisecondsOfBaseBackoff() {
        // 200 ms doubling, capped at 2 s: 100 + 200 + 400 + 800 + 1000 = 2.5 s at least, 5 s at most
        RetryPolicy p = RetryPolicy.DEFAULT.withBackoff(200, 2_000);
        assertEquals(2_500_000_000L, p.minTotalBackoffNanos());
        assertEquals(5_000_000_000L, p.maxTotalBackoffNanos());
        assertEquals(6, p.maxAttempts());
        assertEquals(RetryPolicy.DEFAULT.giveUpAfterMillis(), p.giveUpAfterMillis());
        assertEquals(0, new RetryPolicy(1, 10, 10).maxTotalBackoffNanos(), "one attempt, no backoff");
    }

    @Test
    void jitteredBackoffStaysBetweenHalfTheCapAndTheCap() {
        SplittableRandom r = new SplittableRandom(1);
        for (int retry = 1; retry <= 6; retry++) {
            long cap = RetryPolicy.DEFAULT.backoffCapNanos(retry);
            for (int i = 0; i < 1_000; i++) {
                long b = RetryPolicy.DEFAULT.backoffNanos(retry, r);
                assertTrue(b >= cap / 2 && b <= cap, "retry " + retry + ": " + b);
            }
        }
        assertEquals(0, new RetryPolicy(6, 0, 0).backoffNanos(3, r));
    }

    @Test
    void onlyA201EndsTheRetries() {
        assertFalse(RetryPolicy.DEFAULT.isRetryable(201));
        for (int code : new int[] {
            200, 204, 301, 400, 404, 415, 429, 500, 503, AttemptCodes.TIMEOUT, AttemptCodes.CONNECTION_ERROR
        }) {
            assertTrue(RetryPolicy.DEFAULT.isRetryable(code), "code " + code);
        }
    }

    @Test
    void invalidSettingsAreRejectedNamingTheRule() {
        assertEquals(
                "maxAttempts < 1: 0",
                assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, 1, 1))
                        .getMessage());
        assertEquals(
                "maxBackoffMillis < baseBackoffMillis: 5 < 10",
                assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(6, 10, 5))
                        .getMessage());
        assertEquals(
                "giveUpAfterMillis < 0: -1",
                assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(6, 10, 10, -1))
                        .getMessage());
    }

    @Test
    void errorKindsHaveNames() {
        assertEquals("timeout", AttemptCodes.describe(AttemptCodes.TIMEOUT));
        assertEquals("connection error", AttemptCodes.describe(AttemptCodes.CONNECTION_ERROR));
        assertEquals("HTTP 503", AttemptCodes.describe(503));
        assertEquals(
                AttemptCodes.TIMEOUT, AttemptCodes.classify(new java.net.SocketTimeoutException("Read timed out")));
        assertEquals(AttemptCodes.TIMEOUT, AttemptCodes.classify(new java.io.InterruptedIOException("timeout")));
        assertEquals(AttemptCodes.CONNECTION_ERROR, AttemptCodes.classify(new java.net.ConnectException("refused")));
        assertEquals(AttemptCodes.CONNECTION_ERROR, AttemptCodes.classify(new java.io.EOFException()));
    }

    @Test
    void aRetryAfterOnA503Or429IsWaitedOutWhenLongerThanTheBackoff() {
        SplittableRandom r = new SplittableRandom(1);
        RetryPolicy p = RetryPolicy.DEFAULT;
        assertEquals(1_000_000_000L, p.waitNanos(1, 503, 1_000, r));
        assertEquals(2_000_000_000L, p.waitNanos(1, 429, 2_000, r));
        long backoff = p.waitNanos(5, 503, 0, r); // "Retry-After: 0" does not cut the backoff short
        assertTrue(backoff >= p.backoffCapNanos(5) / 2, "backoff " + backoff);
    }

    @Test
    void aRetryAfterIsCappedSoAServerCannotParkAWorker() {
        SplittableRandom r = new SplittableRandom(1);
        assertEquals(
                RetryPolicy.MAX_RETRY_AFTER_MILLIS * 1_000_000L, RetryPolicy.DEFAULT.waitNanos(1, 503, 86_400_000L, r));
        assertEquals(10_000, RetryPolicy.MAX_RETRY_AFTER_MILLIS);
    }

    @Test
    void aRetryAfterOnOtherStatusesOrAbsentIsIgnored() {
        SplittableRandom r = new SplittableRandom(1);
        RetryPolicy noBackoff = new RetryPolicy(6, 0, 0);
        assertEquals(0, noBackoff.waitNanos(1, 500, 1_000, r));
        assertEquals(0, noBackoff.waitNanos(1, 400, 1_000, r));
        assertEquals(0, noBackoff.waitNanos(1, AttemptCodes.TIMEOUT, 1_000, r));
        assertEquals(0, noBackoff.waitNanos(1, 503, RetryAfter.NONE, r));
    }
}
