package io.upic.liftride.client.engine;

import java.util.Map;

/** Failed requests by final code, for one worker; allocates on the first failure. Not thread-safe. */
final class FailureCounts {

    private static final int STATUSES = 600;
    private static final int ERROR_KINDS = 8; // codes -1 .. -8

    private long[] counts;

    void add(int code) {
        if (counts == null) {
            counts = new long[STATUSES + ERROR_KINDS];
        }
        counts[index(code)]++;
    }

    /** Adds this worker's counts into {@code into}. */
    void addTo(Map<Integer, Long> into) {
        if (counts == null) {
            return;
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0) {
                into.merge(code(i), counts[i], Long::sum);
            }
        }
    }

    private static int index(int code) {
        if (code >= 0 && code < STATUSES) {
            return code;
        }
        if (code < 0 && code >= -ERROR_KINDS) {
            return STATUSES - code - 1;
        }
        throw new IllegalArgumentException("code outside 0..599 and -1..-" + ERROR_KINDS + ": " + code);
    }

    private static int code(int index) {
        return index < STATUSES ? index : -(index - STATUSES + 1);
    }
}
