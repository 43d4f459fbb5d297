package io.upic.liftride.client.part2.compare;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads run summaries for {@code compare} and {@code merge} from a file, a run folder or an output folder.
 * Unknown keys are ignored; a missing key a reader relies on or a newer {@code schemaVersion} is refused. Static
 * and thread-safe.
 */
public final class SummaryReader {

    private static final Gson GSON = new Gson();

    /** The largest summary file read (a sweep of 1,000 runs is about 4 MiB); a larger one is refused unread. */
    public static final long MAX_BYTES = 16L << 20;

    /** The keys every run summary has that a reader relies on (the primitives read as 0 when absent). */
    private static final List<String> REQUIRED = List.of(
            "plan",
            "threads",
            "skiers",
            "lifts",
            "meanRuns",
            "transport",
            "throughput",
            "failed",
            "latencyMs",
            "phases");

    /**
     * One run read.
     *
     * @param source  the summary file it was read from
     * @param summary its summary
     */
    public record Run(Path source, RunSummary summary) {}

    private SummaryReader() {}

    /**
     * The runs {@code input} holds, in file order.
     *
     * @throws CompareInputException one line naming the path and what is wrong with it
     */
    public static List<Run> read(Path input) throws CompareInputException {
        if (Files.isRegularFile(input)) {
            return parse(input);
        }
        if (!Files.isDirectory(input)) {
            throw new CompareInputException("no such file or folder: " + input);
        }
        if (Files.isRegularFile(input.resolve(SummaryJson.FILE))) {
            return parse(input.resolve(SummaryJson.FILE));
        }
        List<Path> files;
        try (Stream<Path> children = Files.list(input)) {
            files = children.map(c -> c.resolve(SummaryJson.FILE))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new CompareInputException("cannot list " + input + ": " + e.getMessage());
        }
        if (files.isEmpty()) {
            throw new CompareInputException(input + " holds no " + SummaryJson.FILE
                    + ", neither itself nor a run folder in it (give a run folder, a summary file or a merge output)");
        }
        List<Run> runs = new ArrayList<>();
        for (Path f : files) {
            runs.addAll(parse(f));
        }
        return runs;
    }

    /** The runs of one summary file. */
    public static List<Run> parse(Path file) throws CompareInputException {
        String json;
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new CompareInputException(file + " is " + size + " bytes, more than a summary's " + MAX_BYTES
                        + " (16 MiB): not a run summary");
            }
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new CompareInputException("cannot read " + file + ": " + e);
        }
        JsonElement doc;
        try {
            doc = JsonParser.parseString(json);
        } catch (JsonParseException e) {
            throw new CompareInputException(file + " is not a run summary (unreadable JSON: " + oneLine(e) + ")");
        }
        if (!doc.isJsonObject()) {
            throw new CompareInputException(file + " is not a run summary (unreadable JSON: not an object)");
        }
        JsonElement runs = doc.getAsJsonObject().get("runs");
        List<Run> read = new ArrayList<>();
        for (JsonElement run : runs != null && runs.isJsonArray() ? runs.getAsJsonArray() : List.of(doc)) {
            read.add(new Run(file, run(file, run)));
        }
        return read;
    }

    private static RunSummary run(Path file, JsonElement e) throws CompareInputException {
        JsonObject o = e.isJsonObject() ? e.getAsJsonObject() : new JsonObject();
        JsonElement version = o.get("schemaVersion");
        if (version == null || !version.isJsonPrimitive()) {
            throw new CompareInputException(file + " is not a run summary (no schemaVersion)");
        }
        if (version.getAsInt() > RunSummary.SCHEMA_VERSION) {
            throw new CompareInputException(file + " has schemaVersion " + version + "; this compare reads "
                    + RunSummary.SCHEMA_VERSION + " (use a newer client)");
        }
        for (String key : REQUIRED) {
            require(file, key, o.get(key) == null || o.get(key).isJsonNull() ? null : key);
        }
        try {
            RunSummary s = GSON.fromJson(o, RunSummary.class);
            for (RunSummary.Phase p : s.phases()) {
                if (p == null || p.name() == null) {
                    throw new CompareInputException(file + " has a phase without name, throughput or failed");
                }
            }
            return s;
        } catch (JsonParseException | IllegalStateException | NumberFormatException | NullPointerException x) {
            throw new CompareInputException(file + " is not a run summary (" + oneLine(x) + ")");
        }
    }

    private static void require(Path file, String key, Object value) throws CompareInputException {
        if (value == null) {
            throw new CompareInputException(file + " is not a run summary (no " + key + ")");
        }
    }

    private static String oneLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
