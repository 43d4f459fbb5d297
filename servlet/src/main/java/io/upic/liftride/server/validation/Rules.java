package io.upic.liftride.server.validation;

/**
 * Every input rule of the API in one table, exactly as {@code swagger/skidata-api.yaml} states them.
 * Constants only; thread-safe.
 *
 * <h2>Path and query text</h2>
 * <ul>
 *   <li>resortID: integer 1..2147483647; skierID: integer 1..100000. Text is ASCII digits only (no
 *       sign, no spaces, no exponent); leading zeros are allowed ({@code 007} is 7), as the
 *       contract's own dayID pattern allows them. Non-numeric or overflowing text is a 400.
 *   <li>dayID: 1 to 3 ASCII digits with a value in 1..366 (contract: pattern {@code ^[0-9]{1,3}$},
 *       minimum 1, maximum 366), on both the /skiers and the /resorts day path.
 *   <li>seasonID on /skiers paths, the {@code season} query value and the SeasonBody {@code year}:
 *       exactly 4 ASCII digits (contract: {@code ^[0-9]{4}$}, so "0999" passes).
 *       seasonID on {@code /resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers} is an integer
 *       1000..9999 in the contract, so there it must be 4 digits and at least 1000.
 *   <li>{@code resort} query value of {@code /skiers/{skierID}/vertical}: as resortID; at least one
 *       is required; repeated values ({@code ?resort=1&resort=2}) ask for several resorts.
 * </ul>
 *
 * <h2>Bodies</h2>
 * <ul>
 *   <li>LiftRide: {@code liftID} integer 1..60 and {@code time} integer 1..420 required,
 *       {@code waitTime} integer 0..10 optional. SeasonBody: {@code year} required, a string.
 *   <li>A JSON integer is a JSON number without fraction or exponent ({@code 12.0} and {@code 1e1}
 *       are refused); strings ({@code "12"}), booleans, null, arrays and objects are refused, naming
 *       the field. Unknown fields are ignored (forward compatible); any field given twice is refused.
 *   <li>The body is strict RFC 8259 JSON in UTF-8 holding exactly one object and nothing after it;
 *       at most {@link #MAX_BODY_BYTES} bytes (413 above); Content-Type must be application/json
 *       (charset, if given, UTF-8), else 415, also when Content-Type is missing.
 * </ul>
 */
public final class Rules {
    public static final IntRule RESORT_ID = new IntRule("resortID", 1, Integer.MAX_VALUE);
    public static final IntRule SKIER_ID = new IntRule("skierID", 1, 100_000);
    public static final IntRule DAY_ID = new IntRule("dayID", 1, 366, 3);
    public static final YearRule SEASON_ID = new YearRule("seasonID", 0);
    /** {@code /resorts/.../seasons/{seasonID}/day/...} declares seasonID as an integer 1000..9999. */
    public static final YearRule RESORT_DAY_SEASON_ID = new YearRule("seasonID", 1000);

    public static final IntRule RESORT_QUERY = new IntRule("resort", 1, Integer.MAX_VALUE);
    public static final YearRule SEASON_QUERY = new YearRule("season", 0);

    public static final IntRule LIFT_ID = new IntRule("liftID", 1, 60);
    public static final IntRule TIME = new IntRule("time", 1, 420);
    public static final IntRule WAIT_TIME = new IntRule("waitTime", 0, 10);
    public static final YearRule YEAR = new YearRule("year", 0);

    /**
     * How often one query parameter ({@code resort}, {@code season}) may appear in a request: a GET
     * reads one total per (resort x season) asked for, so without a cap a URL of 8 KiB could ask for
     * about a million.
     */
    public static final int MAX_QUERY_VALUES = 50;

    /** Largest accepted request body; a LiftRide needs about 40 bytes. */
    public static final int MAX_BODY_BYTES = 4096;
    /** Objects and arrays nested deeper than this (inside ignored fields) are refused. */
    public static final int MAX_JSON_NESTING = 32;

    private Rules() {}
}
