package io.upic.liftride.server.store.redis;

/**
 * How much memory a Redis server uses and may use, from {@code INFO memory}: with {@code noeviction} a full Redis
 * refuses writes, so new rides cannot be stored. Immutable.
 *
 * @param usedBytes {@code used_memory}
 * @param maxBytes {@code maxmemory}; 0 when Redis has no limit
 */
record RedisMemory(long usedBytes, long maxBytes) {
    /** The share of {@code maxmemory} from which Redis counts as full: room for a moment's rides, not a run's. */
    static final double FULL_SHARE = 0.95;

    /** Reads {@code used_memory} and {@code maxmemory} from the text of {@code INFO memory}. */
    static RedisMemory parse(String info) {
        return new RedisMemory(field(info, "used_memory"), field(info, "maxmemory"));
    }

    private static long field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalArgumentException("INFO memory must have " + name + ", got " + info.length() + " characters");
    }

    /** Whether Redis uses {@value #FULL_SHARE} of its {@code maxmemory} or more (never without a maxmemory). */
    boolean full() {
        return maxBytes > 0 && usedBytes >= FULL_SHARE * maxBytes;
    }

    /** For the readiness check: the use, in MiB and as a share of the limit. */
    String describe() {
        if (maxBytes == 0) {
            return String.format("uses %.1f MiB, no maxmemory", usedBytes / 1048576.0);
        }
        return String.format(
                "uses %.1f of its maxmemory %.1f MiB (%.0f%%; not ready from %.0f%%)",
                usedBytes / 1048576.0, maxBytes / 1048576.0, 100.0 * usedBytes / maxBytes, 100 * FULL_SHARE);
    }
}
