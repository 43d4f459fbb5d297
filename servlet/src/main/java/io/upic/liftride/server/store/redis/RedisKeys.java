package io.upic.liftride.server.store.redis;

/**
 * Names of the keys one resort and season's rides live in (see {@code liftride.lua}). They share the
 * hash tag {@code {lr:RESORT:SEASON}}, so on Redis Cluster a ride's keys are in one slot and the
 * function can touch them all. Stateless.
 */
final class RedisKeys {
    private RedisKeys() {}

    static String tag(int resortId, int seasonId) {
        return "{lr:" + resortId + ":" + seasonId + "}";
    }

    /** The resort of a {@link #tag}. */
    static int resortOf(String tag) {
        return Integer.parseInt(tag.substring(4, tag.indexOf(':', 4)));
    }

    /** The season of a {@link #tag}. */
    static int seasonOf(String tag) {
        return Integer.parseInt(tag.substring(tag.indexOf(':', 4) + 1, tag.length() - 1));
    }

    /** The resort and season's stored-ride counter. */
    static String rides(String tag) {
        return tag + ":rides";
    }

    /** skierID -> vertical over the season. */
    static String seasonTotals(String tag) {
        return tag + ":tot";
    }

    /** skierID -> vertical on that day; its length is the day's unique skiers. */
    static String day(String tag, int dayId) {
        return tag + ":d:" + dayId;
    }
}
