package io.upic.liftride.client.part2.compare;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * One run's record, the only input of {@code compare} and {@code merge}: its {@code summary.json} and, for a merge,
 * its histogram logs ({@value HdrLog#FILE}, {@value HdrLog#PER_BUCKET_FILE}). Unknown keys are ignored; a missing
 * key a reader relies on or a newer {@code schemaVersion} is refused. Immutable after reading (a merge adds the
 * histograms into fresh ones); the static readers are thread-safe.
 *
 * @param source    the summary file it was read from, or the run folder {@link #load} read
 * @param summary   its summary
 * @param byTag     its histogram log by tag ("" every attempt); empty when not read
 * @param perBucket its per-bucket log, each histogram timed as its bucket on the wall clock; empty when not read
 */
public record RunRecord(Path source, RunSummary summary, Map<String, Histogram> byTag, List<Histogram> perBucket) {

    /** The largest summary file read (a sweep of 1,000 runs is about 4 MiB); a larger one is refused unread. */
    public static final long MAX_BYTES = 16L << 20;

    private static final Gson GSON = new Gson();

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
     * The runs {@code input} (a summary file, a run folder or an output folder) holds, in file order, without logs.
     *
     * @throws CompareInputException one line naming the path and what is wrong with it
     */
    public static List<RunRecord> read(Path input) throws CompareInputException {
        if (Files.isRegularFile(input)) {
            return parse(input);
        }
        if (!Files.isDirectory(input)) {
            throw new CompareInputException("no such file or folder: " + input);
        }
        List<RunRecord> runs = new ArrayList<>();
        for (Path f : summaries(input)) {
            runs.addAll(parse(f));
        }
        if (runs.isEmpty()) {
            throw new CompareInputException(input + " holds no " + SummaryJson.FILE
                    + ", neither itself nor a run folder in it (give a run folder, a summary file or a merge output)");
        }
        return runs;
    }

    /** The summary files of a folder: its own, else those of the run folders in it, sorted. */
    public static List<Path> summaries(Path dir) throws CompareInputException {
        if (Files.isRegularFile(dir.resolve(SummaryJson.FILE))) {
            return List.of(dir.resolve(SummaryJson.FILE));
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.map(c -> c.resolve(SummaryJson.FILE))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new CompareInputException("cannot list " + dir + ": " + e.getMessage());
        }
    }

    /** The one run of the run folder {@code dir}, with its histogram logs. */
    public static RunRecord load(Path dir) throws CompareInputException, IOException {
        Path file = dir.resolve(SummaryJson.FILE);
        List<RunRecord> runs = parse(file);
        if (runs.size() != 1) {
            throw new CompareInputException(file + " holds " + runs.size() + " runs, not one run's summary");
        }
        return new RunRecord(
                dir,
                runs.get(0).summary(),
                HdrLog.readByTag(dir.resolve(HdrLog.FILE)),
                HdrLog.read(dir.resolve(HdrLog.PER_BUCKET_FILE)));
    }

    /** The runs of one summary file. */
    public static List<RunRecord> parse(Path file) throws CompareInputException {
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
        List<RunRecord> read = new ArrayList<>();
        for (JsonElement run : runs != null && runs.isJsonArray() ? runs.getAsJsonArray() : List.of(doc)) {
            read.add(new RunRecord(file, summary(file, run), Map.of(), List.of()));
        }
        return read;
    }

    private static RunSummary summary(Path file, JsonElement e) throws CompareInputException {
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
            if (o.get(key) == null || o.get(key).isJsonNull()) {
                throw new CompareInputException(file + " is not a run summary (no " + key + ")");
            }
        }
        try {
            RunSummary s = GSON.fromJson(o, RunSummary.class);
            if (s.phases().stream().anyMatch(p -> p == null || p.name() == null)) {
                throw new CompareInputException(file + " has a phase without name, throughput or failed");
            }
            return s;
        } catch (JsonParseException | IllegalStateException | NumberFormatException | NullPointerException x) {
            throw new CompareInputException(file + " is not a run summary (" + oneLine(x) + ")");
        }
    }

    private static String oneLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** The histogram with this tag, or null if the log has none (an empty scope). */
    public Histogram histogram(String tag) {
        return byTag.get(tag);
    }

    /** Adds the per-bucket log into {@code buckets}, each bucket at its middle on the wall clock. */
    public void addBuckets(long originEpochMillis, TimeBuckets buckets) {
        Map<Long, Map<String, Histogram>> byStart = new TreeMap<>();
        for (Histogram h : perBucket) {
            byStart.computeIfAbsent(h.getStartTimeStamp(), k -> new HashMap<>())
                    .put(h.getTag() == null ? "" : h.getTag(), h);
        }
        byStart.forEach((start, tags) -> {
            Histogram all = tags.get("");
            if (all != null) {
                long middle = (start + all.getEndTimeStamp()) / 2;
                buckets.add(
                        (middle - originEpochMillis) * 1_000_000,
                        all,
                        tags.get(HdrLog.FAILED),
                        tags.get(HdrLog.INTENDED));
            }
        });
    }

    /** K of --shard K/N (1 for a run of the whole plan). */
    public int index() {
        return summary.shard() == null ? 1 : summary.shard().index();
    }

    /** N of --shard K/N (1 for a run of the whole plan). */
    public int count() {
        return summary.shard() == null ? 1 : summary.shard().count();
    }

    /** "K/N". */
    public String label() {
        return index() + "/" + count();
    }

    public long startEpochMillis() {
        return Instant.parse(summary.startTime()).toEpochMilli();
    }

    public long wallNanos() {
        return Math.round(summary.wallSeconds() * 1e9);
    }

    public long endEpochMillis() {
        return startEpochMillis() + wallNanos() / 1_000_000;
    }

    /** The run's request account. */
    public Requests requests() {
        RunSummary s = summary;
        return new Requests(s.planned(), s.successful(), s.failed(), s.notSent(), s.retries(), s.attempts());
    }
}
