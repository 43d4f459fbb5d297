package io.upic.liftride.cluster;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A wide-area network between the client and the front, played on loopback by Toxiproxy: {@code rtt} of round
 * trip (half each way), varying by up to {@code jitter}, in whole milliseconds. Immutable.
 *
 * @param rtt the round trip, 1 ms..60 s
 * @param jitter how far the round trip varies either side, 0..rtt
 */
public record WanLink(Duration rtt, Duration jitter) {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s)");

    public WanLink {
        if (rtt == null || rtt.toMillis() < 1 || rtt.compareTo(Duration.ofSeconds(60)) > 0) {
            throw new IllegalArgumentException("--wan-rtt must be in 1ms..60s, got " + rtt);
        }
        if (jitter == null || jitter.isNegative() || jitter.compareTo(rtt) > 0) {
            throw new IllegalArgumentException(
                    "--wan-jitter must be in 0ms..the round trip (" + rtt.toMillis() + "ms), got " + jitter);
        }
    }

    /** A round trip of {@code rttMillis} without jitter. */
    public static WanLink ofMillis(long rttMillis) {
        return new WanLink(Duration.ofMillis(rttMillis), Duration.ZERO);
    }

    /**
     * Parses a duration as the flags take it: a number and a unit, {@code 40ms}, {@code 0.04s}; whole
     * milliseconds (a fraction of one is dropped).
     *
     * @throws IllegalArgumentException "--FLAG must be a duration like 40ms, got "TEXT""
     */
    public static Duration parseDuration(String flag, String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " must be a duration like 40ms or 0.5s, got \"" + text + "\"");
        }
        double value = Double.parseDouble(m.group(1)) * (m.group(2).equals("s") ? 1_000 : 1);
        if (value > 3_600_000) {
            throw new IllegalArgumentException(flag + " must be at most an hour, got \"" + text + "\"");
        }
        return Duration.ofMillis((long) value);
    }

    /** E.g. "40 ms RTT (20 + 20 ms) +/- 5 ms". */
    @Override
    public String toString() {
        long up = rtt.toMillis() / 2;
        return rtt.toMillis() + " ms RTT (" + up + " + " + (rtt.toMillis() - up) + " ms)"
                + (jitter.isZero() ? "" : " +/- " + jitter.toMillis() + " ms");
    }
}
