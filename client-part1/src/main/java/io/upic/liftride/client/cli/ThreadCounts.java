package io.upic.liftride.client.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the {@code -t} value: one thread count or a comma-separated list ({@code 32,64,128,256}),
 * each in {@link #MIN}..{@link #MAX}. The one place that rule lives, so client-part1 and
 * client-part2 accept and reject the same values with the same messages. Static, thread-safe.
 */
public final class ThreadCounts {

    public static final int MIN = 1;
    public static final int MAX = 1024;
    /** How the flag is named in messages. */
    public static final String FLAG = "-t/--threads";

    private ThreadCounts() {}

    /**
     * The thread counts in {@code text}, in the order given.
     *
     * @throws UsageException e.g. {@code -t/--threads must be an integer in 1..1024, got 0}
     */
    public static List<Integer> parse(String text) throws UsageException {
        if (text == null || text.isBlank()) {
            throw new UsageException(FLAG + " needs a value (" + rangeText() + ")");
        }
        String[] parts = text.split(",", -1);
        List<Integer> counts = new ArrayList<>(parts.length);
        for (String part : parts) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new UsageException(
                        FLAG + " must be a thread count or a comma-separated list like 32,64,128,256, got " + text);
            }
            counts.add(parseOne(p));
        }
        return List.copyOf(counts);
    }

    /** One count in range; the message names the flag, the value and the range. */
    public static int parseOne(String text) throws UsageException {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= MIN && n <= MAX) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // same message as out of range
        }
        throw new UsageException(FLAG + " must be " + rangeText() + ", got " + text.trim());
    }

    static String rangeText() {
        return "an integer in " + MIN + ".." + MAX;
    }
}
