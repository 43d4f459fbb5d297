package io.upic.liftride.client.part2.compare;

import com.google.gson.Gson;
import com.google.gson.JsonParseException;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunSummary.Latency;
import io.upic.liftride.client.report.SummaryJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the runs {@code compare} is given: a {@code summary.json} (one run, or a sweep's {@code runs}), a run
 * folder holding one, or a folder whose run folders hold one each (a client-part2 output folder, a merge
 * output). Only the keys compare needs are read, so summaries with keys added later still read; a missing
 * key or a newer {@code schemaVersion} is refused. Static and thread-safe.
 */
public final class SummaryReader {

    private static final Gson GSON = new Gson();

    /** The largest summary file read (a sweep of 1,000 runs is about 4 MiB); a larger one is refused unread. */
    public static final long MAX_BYTES = 16L << 20;

    /** The keys read from a run's summary (boxed: null when absent); {@code runs} only in a sweep document. */
    private record Doc(
            Integer schemaVersion,
            String client,
            RunSummary.Shard shard,
            String plan,
            Integer threads,
            Integer skiers,
            Integer lifts,
            Integer meanRuns,
            String transport,
            Double offeredRate,
            Double throughput,
            Double wallSeconds,
            Long failed,
            Boolean stopped,
            RunSummary.PredictionInputs prediction,
            List<PhaseDoc> phases,
            Latency latencyMs,
            Latency latencyFromIntendedMs,
            List<Doc> runs) {}

    private record PhaseDoc(
            String name, Double throughput, Long failed, Latency latencyMs, Latency latencyFromIntendedMs) {}

    private SummaryReader() {}

    /**
     * The runs {@code input} holds, in file order.
     *
     * @throws CompareInputException one line naming the path and what is wrong with it
     */
    public static List<ComparedRun> read(Path input) throws CompareInputException {
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
        List<ComparedRun> runs = new ArrayList<>();
        for (Path f : files) {
            runs.addAll(parse(f));
        }
        return runs;
    }

    /** The runs of one summary file. */
    static List<ComparedRun> parse(Path file) throws CompareInputException {
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
        Doc doc;
        try {
            doc = GSON.fromJson(json, Doc.class);
        } catch (JsonParseException | IllegalStateException | NumberFormatException e) {
            throw new CompareInputException(file + " is not a run summary (unreadable JSON: " + oneLine(e) + ")");
        }
        if (doc == null) {
            throw new CompareInputException(file + " is empty, not a run summary");
        }
        if (doc.runs() == null) {
            return List.of(run(file, doc));
        }
        List<ComparedRun> runs = new ArrayList<>();
        for (Doc d : doc.runs()) {
            runs.add(run(file, d));
        }
        return runs;
    }

    private static ComparedRun run(Path file, Doc d) throws CompareInputException {
        if (d == null || d.schemaVersion() == null) {
            throw new CompareInputException(file + " is not a run summary (no schemaVersion)");
        }
        if (d.schemaVersion() > RunSummary.SCHEMA_VERSION) {
            throw new CompareInputException(file + " has schemaVersion " + d.schemaVersion() + "; this compare reads "
                    + RunSummary.SCHEMA_VERSION + " (use a newer client)");
        }
        require(file, "plan", d.plan());
        require(file, "threads", d.threads());
        require(file, "skiers", d.skiers());
        require(file, "lifts", d.lifts());
        require(file, "meanRuns", d.meanRuns());
        require(file, "transport", d.transport());
        require(file, "throughput", d.throughput());
        require(file, "failed", d.failed());
        require(file, "latencyMs", d.latencyMs());
        require(file, "phases", d.phases());
        PlanKey plan = new PlanKey(
                d.plan(),
                d.threads(),
                d.skiers(),
                d.lifts(),
                d.meanRuns(),
                d.transport(),
                d.offeredRate(),
                d.shard() == null ? null : d.shard().index() + "/" + d.shard().count(),
                d.prediction() != null);
        List<ScopeNumbers> phases = new ArrayList<>();
        for (PhaseDoc p : d.phases()) {
            if (p == null || p.name() == null || p.throughput() == null || p.failed() == null) {
                throw new CompareInputException(file + " has a phase without name, throughput or failed");
            }
            phases.add(
                    new ScopeNumbers(p.name(), p.throughput(), p.failed(), p.latencyMs(), p.latencyFromIntendedMs()));
        }
        ScopeNumbers run =
                new ScopeNumbers("run", d.throughput(), d.failed(), d.latencyMs(), d.latencyFromIntendedMs());
        return new ComparedRun(
                file,
                d.client(),
                plan,
                run,
                phases,
                Boolean.TRUE.equals(d.stopped()),
                d.wallSeconds() == null ? Double.NaN : d.wallSeconds());
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
