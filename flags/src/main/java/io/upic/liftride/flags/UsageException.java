package io.upic.liftride.flags;

/**
 * A command line that cannot be run. The message is the one line shown to the user: it names the
 * flag, the value given and what is allowed (e.g. {@code -t/--threads must be an integer in 1..1024,
 * got 0}). Callers print it as {@link #line()} and exit with {@link #EXIT_CODE}.
 */
public final class UsageException extends Exception {

    /** Exit code for a bad command line. */
    public static final int EXIT_CODE = 2;

    /** What follows the message on the user's screen. */
    public static final String HINT = "(--help lists the options)";

    public UsageException(String message) {
        super(message, null, false, false); // a user error, not a bug: no stack trace to fill or print
    }

    /** The one line a command prints for this error: the message and {@link #HINT}. */
    public String line() {
        return getMessage() + " " + HINT;
    }
}
