package io.upic.liftride.client.http;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads a {@code Retry-After} header value (RFC 9110 section 10.2.3): either delay-seconds
 * ({@code 1}) or an HTTP-date ({@code Wed, 21 Oct 2015 07:28:00 GMT}). Static and thread-safe.
 */
public final class RetryAfter {

    /** What {@link #millis} returns when the value names no wait (absent or malformed). */
    public static final long NONE = -1;

    /** Longer delay-seconds than this are read as this; it is far past any cap the client applies. */
    private static final long MAX_SECONDS = 1_000_000_000L;

    private RetryAfter() {}

    /**
     * The wait {@code value} asks for, in milliseconds from {@code nowEpochMillis} (0 for a date in
     * the past), or {@link #NONE} if {@code value} is null or neither form. The obsolete date forms
     * (RFC 850, asctime), which servers must not send, are not read.
     */
    public static long millis(String value, long nowEpochMillis) {
        if (value == null) {
            return NONE;
        }
        String v = value.trim();
        if (v.isEmpty()) {
            return NONE;
        }
        if (isDigits(v)) {
            return v.length() > 10 ? MAX_SECONDS * 1000 : Math.min(Long.parseLong(v), MAX_SECONDS) * 1000;
        }
        try {
            long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant()
                    .toEpochMilli();
            return Math.max(0, at - nowEpochMillis);
        } catch (DateTimeParseException e) {
            return NONE;
        }
    }

    private static boolean isDigits(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
