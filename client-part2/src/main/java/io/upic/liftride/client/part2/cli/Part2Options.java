package io.upic.liftride.client.part2.cli;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.threshold.MetricCatalog;
import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.UsageException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;

/** client-part2's flags: client-part1's ({@link RunOptions}) plus {@link #OUT}. Static and thread-safe. */
public final class Part2Options {

    /** Where runs go without --out, relative to the working directory (git-ignored). */
    public static final Path DEFAULT_PARENT = Path.of("data", "runs");

    /** --out DIR: read by {@link #outputDir}, which creates it (so the check happens there). */
    public static final Flag<String> OUT = Flag.of(
            null,
            "out",
            "DIR",
            "a folder that can be created",
            null,
            "folder for report.html, report.md, the CSVs, charts, histogram logs and summary.json (created if"
                    + " missing); default a new folder " + DEFAULT_PARENT + "/<date>T<time>/ under the working"
                    + " directory",
            text -> text);

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss", Locale.ROOT);

    private Part2Options() {}

    /** The open model's flag: with it the latency from the intended send exists. */
    static final String OPEN_MODEL_FLAG = "rate";

    /** Parses and validates {@code args}: client-part1's flags and --out. */
    public static ParsedArgs parse(String[] args) throws UsageException {
        ParsedArgs parsed = RunOptions.parse(args, OUT);
        if (!parsed.helpRequested()) {
            String unmeasurable = MetricCatalog.histograms(parsed.commandLine().hasOption(OPEN_MODEL_FLAG))
                    .unmeasurable(parsed.config().checks().thresholds());
            if (unmeasurable != null) {
                throw new UsageException(unmeasurable);
            }
        }
        return parsed;
    }

    /** The usage of client-part1's flags and --out, headed by {@code command}. */
    public static String usage(String command) {
        return RunOptions.usage(
                command,
                "Files: --out DIR holds report.html (open it first), report.md, the sweep charts and a folder per run"
                        + " with its CSV, histogram log, charts and summary.json; exit code 1 also when the CSV or the"
                        + " histograms miss an attempt.",
                OUT);
    }

    /**
     * Creates and returns the output folder: --out as given (it may exist, files in it are replaced), or
     * a fresh {@code data/runs/<timestamp>} (with a -2, -3... suffix if that exists already).
     *
     * @throws UsageException if the folder cannot be created
     */
    public static Path outputDir(CommandLine cl, Path workingDir, LocalDateTime now) throws UsageException {
        String value = OUT.valueIn(cl);
        if (value != null) {
            try {
                Path dir = workingDir.resolve(value.trim());
                Files.createDirectories(dir);
                return dir;
            } catch (InvalidPathException | IOException e) {
                throw new UsageException(OUT.invalid(value).getMessage() + " (" + e + ")");
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
