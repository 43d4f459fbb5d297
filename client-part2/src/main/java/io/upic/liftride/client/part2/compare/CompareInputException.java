package io.upic.liftride.client.part2.compare;

/**
 * Input {@code compare} cannot use: a missing or unreadable file, JSON that is no run summary, runs of unlike
 * plans. The message is the one line shown to the user (exit 2). Immutable.
 */
public final class CompareInputException extends Exception {

    public CompareInputException(String message) {
        super(message, null, false, false); // a user error: no stack trace to fill or print
    }
}
