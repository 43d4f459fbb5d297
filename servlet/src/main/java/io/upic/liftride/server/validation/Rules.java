package io.upic.liftride.server.validation;

/**
 * Every input rule of the API in one table, exactly as {@code swagger/skidata-api.yaml} states them (docs/server.md
 * lists them). Path and query numbers are ASCII digits only, leading zeros allowed; bodies are strict UTF-8 JSON of
 * one object, at most {@link #MAX_BODY_BYTES} bytes, integers without fraction or exponent, unknown fields
 * ignored. Constants only; thread-safe.
 */
public final class Rules {
    public static final IntRule RESORT_ID = new IntRule("resortID", 1, Integer.MAX_VALUE);
    public static final IntRule SKIER_ID = new IntRule("skierID", 1, 100_000);
    public static final IntRule DAY_ID = new IntRule("dayID", 1, 366, 3, false);
    public static final IntRule SEASON_ID = IntRule.year("seasonID", 0);
    /** {@code /resorts/.../seasons/{seasonID}/day/...} declares seasonID as an integer 1000..9999. */
    public static final IntRule RESORT_DAY_SEASON_ID = IntRule.year("seasonID", 1000);

    public static final IntRule RESORT_QUERY = new IntRule("resort", 1, Integer.MAX_VALUE);
    public static final IntRule SEASON_QUERY = IntRule.year("season", 0);

    public static final IntRule LIFT_ID = new IntRule("liftID", 1, 60);
    public static final IntRule TIME = new IntRule("time", 1, 420);
    public static final IntRule WAIT_TIME = new IntRule("waitTime", 0, 10);
    public static final IntRule YEAR = IntRule.year("year", 0);

    /** How often one query parameter may appear: each value costs a read, so this caps a GET's work. */
    public static final int MAX_QUERY_VALUES = 50;

    /** Largest accepted request body; a LiftRide needs about 40 bytes. */
    public static final int MAX_BODY_BYTES = 4096;
    /** Objects and arrays nested deeper than this (inside ignored fields) are refused. */
    public static final int MAX_JSON_NESTING = 32;

    private Rules() {}
}
