package io.upic.liftride.flags;

/**
 * A command line that cannot be run. The message is the one line shown to the user: it names the
 * flag, the value given and what is allowed (e.g. {@code -t/--threads must be an integer in 1..1024,
 * got 0}). Callers print it, then the usage, and exit with {@link #EXIT_CODE}.
 */
public final class UsageException extends Exception {

    /** Exit code for a bad command line. */
    public static final int EXIT_CODE = 2;

    public UsageException(String message) {
        super(message, null, false, false); // a user error, not a bug: no stack trace to fill or print
    }
}
