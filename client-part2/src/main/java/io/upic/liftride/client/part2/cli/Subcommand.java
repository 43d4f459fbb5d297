package io.upic.liftride.client.part2.cli;

import io.upic.liftride.flags.UsageException;
import java.io.PrintStream;

/**
 * The words after a subcommand ({@code merge}, {@code compare}) parsed into its request, with the one way both
 * answer {@code --help} (the usage on stdout, exit 0) and a bad word (one line on stderr, exit 2).
 * Immutable; {@link #parse} is thread-safe if the parser is.
 *
 * @param request  the parsed request, or null when the subcommand is done ({@code --help} or a usage error)
 * @param exitCode the exit code when done: 0 after {@code --help}, {@link UsageException#EXIT_CODE} after an error
 */
public record Subcommand<R>(R request, int exitCode) {

    /** Parses a subcommand's words; returns null for {@code --help}. */
    @FunctionalInterface
    public interface Parser<R> {
        R parse(String[] args) throws UsageException;
    }

    /** Whether the subcommand ends here, with {@link #exitCode()}. */
    public boolean done() {
        return request == null;
    }

    /** Parses {@code args} with {@code parser}, printing {@code usage} for {@code --help}, one line for an error. */
    public static <R> Subcommand<R> parse(
            String[] args, Parser<R> parser, String usage, PrintStream out, PrintStream err) {
        try {
            R request = parser.parse(args);
            if (request == null) {
                out.print(usage);
                out.flush();
                return new Subcommand<>(null, 0);
            }
            return new Subcommand<>(request, 0);
        } catch (UsageException e) {
            err.println(e.line());
            err.flush();
            return new Subcommand<>(null, UsageException.EXIT_CODE);
        }
    }
}
