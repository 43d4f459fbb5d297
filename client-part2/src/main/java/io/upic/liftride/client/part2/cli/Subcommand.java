package io.upic.liftride.client.part2.cli;

import io.upic.liftride.flags.UsageException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.ToIntFunction;

/**
 * Runs a subcommand's words ({@code merge}, {@code compare}) the one way both answer: {@code --help} prints the
 * usage on stdout (exit 0), a bad word one line on stderr (exit 2), else the parsed request runs. Static and
 * thread-safe if the parser is.
 */
public final class Subcommand {

    /** Parses a subcommand's words; returns null for {@code --help}. */
    @FunctionalInterface
    public interface Parser<R> {
        R parse(String[] args) throws UsageException;
    }

    private Subcommand() {}

    /** Parses {@code args} with {@code parser} and returns the exit code of {@code body} on its request. */
    public static <R> int run(
            String[] args, Parser<R> parser, String usage, PrintStream out, PrintStream err, ToIntFunction<R> body) {
        R request;
        try {
            request = parser.parse(args);
        } catch (UsageException e) {
            err.println(e.line());
            err.flush();
            return UsageException.EXIT_CODE;
        }
        if (request == null) {
            out.print(usage);
            out.flush();
            return 0;
        }
        return body.applyAsInt(request);
    }

    /** {@code text} resolved against {@code workingDir}; a usage error naming {@code what} when it is no path. */
    public static Path path(Path workingDir, String text, String what) throws UsageException {
        try {
            return workingDir.resolve(text.trim());
        } catch (InvalidPathException e) {
            throw new UsageException(what + " must be a path, got " + text + " (" + e.getMessage() + ")");
        }
    }
}
