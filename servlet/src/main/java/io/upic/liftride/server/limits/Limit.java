package io.upic.liftride.server.limits;

import java.util.Locale;

/**
 * One configurable limit of a server facing an open port: its flag, system property and environment variable
 * (the property's name in capitals; first found wins), its default (sized for a 256 MiB heap) and the range it
 * accepts. Immutable.
 */
public enum Limit {
    /** Resorts the store holds, the 10 seeded ones included. */
    RESORTS("max-resorts", "liftride.maxResorts", 1_000, 10, Integer.MAX_VALUE, "resorts"),
    /** Seasons one resort holds. */
    SEASONS_PER_RESORT("max-seasons", "liftride.maxSeasonsPerResort", 100, 1, 10_000, "seasons per resort"),
    /** (resort, season, day) aggregates the store holds (not bounded on a Redis Cluster). */
    RESORT_DAYS("max-days", "liftride.maxResortDays", 25_000, 1, Integer.MAX_VALUE, "resort days"),
    /** A skier's days at a resort, (resort, season, day, skier), the store holds (not bounded on a Redis Cluster). */
    SKIER_DAYS("max-skier-days", "liftride.maxSkierDays", 250_000, 1, Integer.MAX_VALUE, "skier days"),
    /**
     * Percent of each limit above one client may fill ({@link Limits#clientBudget}); half: a load client at the
     * flags' largest -s (100,000 skier days) fits, two clients fill a limit.
     */
    CLIENT_SHARE_PERCENT(
            "max-client-share", "liftride.maxClientSharePercent", 50, 1, 100, "percent of a limit per client"),
    /** Milliseconds a request body has, from the end of its headers to its last byte; then 408. */
    BODY_DEADLINE_MILLIS(
            "body-deadline-ms", "liftride.bodyDeadlineMillis", 10_000, 100, 600_000, "milliseconds for a request body");

    private final String flag;
    private final String property;
    private final String env;
    private final long defaultValue;
    private final long min;
    private final long max;
    private final String noun;

    Limit(String flag, String property, long defaultValue, long min, long max, String noun) {
        this.flag = flag;
        this.property = property;
        // liftride.maxResorts -> LIFTRIDE_MAX_RESORTS
        this.env =
                property.replace('.', '_').replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.noun = noun;
    }

    /** The launcher's long option, without the dashes ({@code max-resorts}). */
    public String flag() {
        return flag;
    }

    /** The system property, also the context parameter the launcher sets ({@code liftride.maxResorts}). */
    public String property() {
        return property;
    }

    public String env() {
        return env;
    }

    public long defaultValue() {
        return defaultValue;
    }

    /** What is counted, for messages ({@code resorts}). */
    public String noun() {
        return noun;
    }

    /** Parses {@code text} as this limit's value, or throws one line naming limit, rule and value. */
    public long parse(String text) {
        return Limits.parse(text, "--" + flag + " / " + property + " / " + env, min, max);
    }
}
