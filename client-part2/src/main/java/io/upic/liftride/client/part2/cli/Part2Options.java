package io.upic.liftride.client.part2.cli;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.cli.UsageException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * client-part2's flags: every flag of client-part1 ({@link RunOptions#base()}, parsed and validated
 * by client-part1) plus {@code --out DIR}. Static and thread-safe.
 */
public final class Part2Options {

    public static final String OUT = "out";
    /** Where runs go without --out, relative to the working directory (git-ignored). */
    public static final Path DEFAULT_PARENT = Path.of("data", "runs");

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss", Locale.ROOT);

    private Part2Options() {}

    /** client-part1's flags plus --out. */
    public static Options options() {
        Options o = RunOptions.base();
        o.addOption(Option.builder()
                .longOpt(OUT)
                .hasArg()
                .argName("DIR")
                .desc(
                        "folder for the CSVs, charts, histogram logs and report.md (created if missing); default a new folder "
                                + DEFAULT_PARENT + "/<date>T<time>/ under the working directory")
                .build());
        return o;
    }

    /** Parses and validates {@code args}. */
    public static ParsedArgs parse(String[] args) throws UsageException {
        return RunOptions.parse(options(), args);
    }

    /**
     * Creates and returns the output folder: --out as given (it may exist, files in it are replaced), or
     * a fresh {@code data/runs/<timestamp>} (with a -2, -3... suffix if that exists already).
     *
     * @throws UsageException if the folder cannot be created
     */
    public static Path outputDir(CommandLine cl, Path workingDir, LocalDateTime now) throws UsageException {
        if (cl.hasOption(OUT)) {
            String value = cl.getOptionValue(OUT);
            try {
                Path dir = workingDir.resolve(value.trim());
                Files.createDirectories(dir);
                return dir;
            } catch (InvalidPathException | IOException e) {
                throw new UsageException("--out must be a folder that can be created, got " + value + " (" + e + ")");
            }
        }
        Path parent = workingDir.resolve(DEFAULT_PARENT);
        String stamp = STAMP.format(now);
        try {
            Files.createDirectories(parent);
            for (int i = 1; ; i++) {
                Path dir = parent.resolve(i == 1 ? stamp : stamp + "-" + i);
                try {
                    return Files.createDirectory(dir);
                } catch (FileAlreadyExistsException e) {
                    // another run this second: try the next suffix
                }
            }
        } catch (IOException e) {
            throw new UsageException(
                    "cannot create the output folder under " + parent + " (" + e + "); pass --out DIR");
        }
    }
}
