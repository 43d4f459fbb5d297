package io.upic.liftride.client.part2.compare;

/** What one metric's change means against its band. Stateless and thread-safe. */
public enum Verdict {
    /** Moved the wrong way past its band in the whole run: sets exit code 3. */
    REGRESSION("REGRESSION"),
    /** Moved the wrong way past its band in a phase: shown, but only the whole run sets the exit code. */
    WORSE("worse"),
    /** Moved the right way past its band. */
    BETTER("better"),
    /** Within its band. */
    WITHIN("ok"),
    /** Its band is {@code off}. */
    NOT_GATED("not gated"),
    /** One side (or both) has no value for it: not compared. */
    NOT_MEASURED("n/a");

    private final String text;

    Verdict(String text) {
        this.text = text;
    }

    /** As the tables write it. */
    public String text() {
        return text;
    }
}
