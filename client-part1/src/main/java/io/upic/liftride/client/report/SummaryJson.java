package io.upic.liftride.client.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes {@link RunSummary} values as JSON with nulls kept, one run as an object and a sweep under {@code runs};
 * written beside its final name and moved into place, so a reader never sees half of it. Static and thread-safe.
 */
public final class SummaryJson {

    /** client-part2's name for the summary in each run folder. */
    public static final String FILE = "summary.json";

    /** Where the schema is on the classpath (client-part1's jar). */
    public static final String SCHEMA_RESOURCE = "/summary.schema.json";

    private static final Gson GSON = new GsonBuilder()
            .serializeNulls()
            .setPrettyPrinting()
            .disableHtmlEscaping()
            .create();

    /**
     * A sweep's summaries in one document.
     *
     * @param schemaVersion {@link RunSummary#SCHEMA_VERSION}
     * @param client        the program's name
     * @param runs          one per run, in the order run
     */
    public record Sweep(int schemaVersion, String client, List<RunSummary> runs) {}

    private SummaryJson() {}

    /** The JSON of one run. */
    public static String toJson(RunSummary summary) {
        return GSON.toJson(summary);
    }

    /** The JSON of {@code runs}: one object for one run, a {@link Sweep} for several. */
    public static String toJson(List<RunSummary> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs");
        }
        return runs.size() == 1
                ? toJson(runs.get(0))
                : GSON.toJson(new Sweep(RunSummary.SCHEMA_VERSION, runs.get(0).client(), runs));
    }

    /** Writes {@code runs} (see {@link #toJson(List)}) to {@code file}, creating its folder. */
    public static void write(Path file, List<RunSummary> runs) throws IOException {
        String json = toJson(runs) + System.lineSeparator();
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(json);
        }
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
