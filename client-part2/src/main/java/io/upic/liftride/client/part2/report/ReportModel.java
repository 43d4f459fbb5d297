package io.upic.liftride.client.part2.report;

import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.part2.chart.RunCharts.ChartFile;
import io.upic.liftride.client.part2.metrics.Timeline;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.RunTables;
import io.upic.liftride.client.report.Table;
import io.upic.liftride.client.report.TheoryTable;
import java.nio.file.Path;
import java.util.List;

/**
 * What a report says, built once from a run, a sweep or a merge (or two sides' runs, as a {@link Comparison})
 * before any formatting; the renderers only format it. Immutable by convention: histograms and arrays are
 * shared, not copied, so do not modify them.
 *
 * @param header the document's context
 * @param sweep  the sweep across thread counts, or null for fewer than two runs
 * @param runs   one section per run (or merged run), in order
 */
public record ReportModel(Header header, Sweep sweep, List<Run> runs) {

    public ReportModel {
        runs = List.copyOf(runs);
    }

    /**
     * The document's context.
     *
     * @param title       the document's title
     * @param command     the command line as typed (for the reader to repeat it)
     * @param generatedAt when, as text
     * @param facts       labelled lines under the command (server, plan, baseline...)
     * @param intro       paragraphs before the sections (how a merge adds shards up...)
     * @param stopped     whether a stop cut the command short
     */
    public record Header(
            String title, String command, String generatedAt, List<Fact> facts, List<String> intro, boolean stopped) {

        public Header {
            facts = List.copyOf(facts);
            intro = List.copyOf(intro);
        }
    }

    /** A labelled line of the header. */
    public record Fact(String label, String value) {}

    /**
     * One run, or one merged run.
     *
     * @param name        the run folder's name ({@code t64}): a stable id
     * @param heading     the section's heading
     * @param summary     its record (summary.json): account, phases, latencies, thresholds, prediction
     * @param files       the data files worth a link (CSV, histogram logs)
     * @param warnings    what a reader must not miss (a partial merge...), empty normally
     * @param checks      the checks of the account, each passed, failed or not made
     * @param notes       lines after the checks (the process CPU, thresholds...)
     * @param problems    problem lines, labelled ("PROBLEM: ...")
     * @param theory      Little's-law predictions against the measurement, or null without a baseline
     * @param rates       the open model's offered against achieved rate per started phase; null in the closed
     *                    model and with --ramp (its summary's stages)
     * @param timeline    latency and throughput over time
     * @param percentiles the latency percentile distribution
     * @param charts      the PNG charts written for it
     * @param shards      each shard's window when this is a merge, else null
     * @param generated   a closing line (how long the statistics took), or null
     */
    public record Run(
            String name,
            String heading,
            RunSummary summary,
            List<FileRef> files,
            List<String> warnings,
            List<Check> checks,
            List<String> notes,
            List<String> problems,
            TheoryTable theory,
            Table rates,
            Timeline timeline,
            PercentileCurves percentiles,
            List<ChartFile> charts,
            Shards shards,
            String generated) {

        public Run {
            files = List.copyOf(files);
            warnings = List.copyOf(warnings);
            checks = List.copyOf(checks);
            notes = List.copyOf(notes);
            problems = List.copyOf(problems);
            charts = List.copyOf(charts);
        }

        /** Whether it ran in the open model (--rate or --ramp). */
        public boolean open() {
            return summary.offeredRate() != null || ramp() != null;
        }

        /** Its --ramp, or null without. */
        public RunSummary.RampOutcome ramp() {
            return summary.ramp();
        }

        /** Its phase named {@code name}, or null. */
        public RunSummary.Phase phase(String name) {
            return summary.phases().stream()
                    .filter(p -> p.name().equals(name))
                    .findFirst()
                    .orElse(null);
        }
    }

    /**
     * A data file of a run.
     *
     * @param file the file, or null when it could not be written
     * @param name what to call it when the file is missing
     * @param note what follows the link, e.g. "(1,234 rows)", or ""
     */
    public record FileRef(Path file, String name, String note) {}

    /**
     * One check of a run's account.
     *
     * @param text what was compared, e.g. "planned 1,000 = successful + failed + not sent"
     * @param ok   whether it held; null when it could not be made (the text says why)
     */
    public record Check(String text, Boolean ok) {}

    /**
     * The shards of a merged run on the wall clock.
     *
     * @param windows               each shard's window and numbers, by K
     * @param overlapFromEpochMillis when the last shard started (the overlap's start)
     * @param overlapToEpochMillis   when the first shard ended (the overlap's end); not after the start when the
     *                               shards never ran together
     * @param overlapSuccessful      successful requests that completed in the overlap (all shards)
     * @param overlapThroughput      {@code overlapSuccessful} / the overlap's seconds; NaN without an overlap
     * @param total                  the total's row: its account and statistics
     */
    public record Shards(
            List<ShardWindow> windows,
            long overlapFromEpochMillis,
            long overlapToEpochMillis,
            long overlapSuccessful,
            double overlapThroughput,
            ShardWindow total) {

        public Shards {
            windows = List.copyOf(windows);
        }

        /** Whether every shard was running at some moment together. */
        public boolean overlap() {
            return overlapToEpochMillis > overlapFromEpochMillis;
        }

        /** The overlap's length in seconds (0 without one). */
        public double overlapSeconds() {
            return Math.max(0, overlapToEpochMillis - overlapFromEpochMillis) / 1e3;
        }
    }

    /**
     * One shard's window and numbers.
     *
     * @param label            "1/2" (or "**total**" for the total row)
     * @param startEpochMillis its start on the wall clock
     * @param endEpochMillis   its end on the wall clock
     * @param requests         its account
     * @param throughput       its successful requests per second of its own window
     * @param latencyMs        its latencies, as its summary.json has them
     */
    public record ShardWindow(
            String label,
            long startEpochMillis,
            long endEpochMillis,
            Requests requests,
            double throughput,
            RunSummary.Latency latencyMs) {}

    /**
     * The sweep across thread counts.
     *
     * @param rows        one per run, in order
     * @param predictions predicted throughput and wall time per run (Little's law's bounds; other models may be
     *                    added), aligned with {@code rows}
     * @param caveat      a caveat on the bounded prediction's CPU scope, or ""
     * @param charts      the sweep's PNG charts
     */
    public record Sweep(
            List<RunTables.SweepRow> rows, List<Predicted> predictions, String caveat, List<ChartFile> charts) {

        public Sweep {
            rows = List.copyOf(rows);
            predictions = List.copyOf(predictions);
            charts = List.copyOf(charts);
        }
    }

    /**
     * A prediction across the sweep's runs.
     *
     * @param name       the model, e.g. "naive N / W"
     * @param throughput predicted req/s per row, NaN where there is none
     * @param wallSeconds predicted wall time per row, NaN where there is none
     */
    public record Predicted(String name, double[] throughput, double[] wallSeconds) {}

    /**
     * Two sides' runs compared ({@code compare}): the verdict, what was compared and how far to trust it, one
     * table per scope (the whole run, which decides, then each phase).
     *
     * @param title    the document's title
     * @param verdict  the verdict in one line, with its cautions
     * @param exitCode 0 when no metric regressed past its band
     * @param facts    the runs, the plan, the band, where each number comes from, the cautions
     * @param tables   one per scope, the whole run's first; the first column's header names the scope
     */
    public record Comparison(String title, String verdict, int exitCode, List<Fact> facts, List<Table> tables) {

        /** How the documents head a comparison that found no regression. */
        static final String NO_REGRESSION = "**No regression** past the band.";

        public Comparison {
            facts = List.copyOf(facts);
            tables = List.copyOf(tables);
            if (tables.isEmpty()) {
                throw new IllegalArgumentException("a comparison without the whole run's table");
            }
        }

        /** Whether a metric regressed past its band. */
        public boolean regression() {
            return exitCode != 0;
        }
    }
}
