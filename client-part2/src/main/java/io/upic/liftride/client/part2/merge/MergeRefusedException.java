package io.upic.liftride.client.part2.merge;

/** Why shard outputs cannot be merged, as one line for the user (the merge then exits 2). */
public final class MergeRefusedException extends Exception {

    private static final long serialVersionUID = 1L;

    public MergeRefusedException(String message) {
        super(message);
    }
}
