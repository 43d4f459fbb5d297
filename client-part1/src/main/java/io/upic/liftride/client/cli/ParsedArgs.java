package io.upic.liftride.client.cli;

import java.util.List;
import org.apache.commons.cli.CommandLine;

/**
 * The result of {@link RunOptions#parse}: the run's config plus the raw command line, so a caller that
 * added its own options (client-part2's {@code --out}) reads them from {@link #commandLine()}.
 * Immutable.
 *
 * @param commandLine   everything parsed, including options the caller added
 * @param threadCounts  the -t value(s) in order; one element unless a list was given
 * @param config        the run config for the first thread count; null when help was requested
 * @param helpRequested --help was given: print the usage, exit 0, run nothing
 */
public record ParsedArgs(CommandLine commandLine, List<Integer> threadCounts, RunConfig config, boolean helpRequested) {

    public ParsedArgs {
        threadCounts = List.copyOf(threadCounts);
    }
}
