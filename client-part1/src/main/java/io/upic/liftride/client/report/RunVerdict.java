package io.upic.liftride.client.report;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.threshold.MetricSource;
import io.upic.liftride.client.threshold.ThresholdCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The end of a run and of an invocation beyond the printed account: a run's thresholds checked and its JSON
 * summary built ({@link #judge}), then, after the last run, every run's PASS/FAIL lines before what to open next on
 * screen, the {@code --summary-json} file, and the exit code ({@link #conclude}). Static and thread-safe.
 */
public final class RunVerdict {

    private RunVerdict() {}

    /**
     * {@code report} with its thresholds checked against {@code metrics} (what the run measured) and its summary
     * built.
     *
     * @param clientName  the program's name in the summary
     * @param offeredRate the open model's --rate, or null in the closed model
     */
    public static RunReport judge(RunReport report, MetricSource metrics, String clientName, Double offeredRate) {
        ThresholdCheck check = ThresholdCheck.of(report.config().checks().thresholds(), metrics);
        RunSummary summary = RunSummary.of(report, metrics, check, clientName, offeredRate);
        return report.toBuilder().thresholds(check).summary(summary).build();
    }

    /**
     * Prints each run's threshold lines, writes {@code summaryJson} (if not null) and returns the {@link
     * ExitCodes#worse} of {@code exitCode} and what the runs and the file give.
     */
    public static int conclude(
            PrintStream out, PrintStream err, Path summaryJson, List<RunReport> reports, int exitCode) {
        boolean passed = true;
        for (RunReport r : reports) {
            ThresholdCheck check = Objects.requireNonNullElse(r.thresholds(), ThresholdCheck.NONE);
            check.print(
                    out,
                    reports.size() == 1
                            ? "Thresholds"
                            : "Thresholds, -t " + r.summary().threads());
            if (r.summary().abort() != null) {
                out.println("  " + r.summary().abort().line());
            }
            passed &= check.passed() && r.abort() == null;
        }
        int code = passed ? exitCode : ExitCodes.worse(exitCode, ThresholdCheck.EXIT_CODE);
        List<RunReport> unchecked =
                reports.stream().filter(r -> r.reconciliation().unverifiable()).toList();
        if (!unchecked.isEmpty()) {
            out.printf(
                    Locale.US,
                    "Not reconciled with the server: its ridesStored could not be read for %d of %d runs (%s); exit"
                            + " code %d unless a request failed%n",
                    unchecked.size(),
                    reports.size(),
                    unchecked.get(0).reconciliation().serverNote(),
                    ExitCodes.UNCHECKED);
            code = ExitCodes.worse(code, ExitCodes.UNCHECKED);
        }
        if (summaryJson != null && !reports.isEmpty()) {
            try {
                SummaryJson.write(
                        summaryJson,
                        reports.stream()
                                .map(RunReport::summary)
                                .filter(Objects::nonNull)
                                .toList());
                out.println("Summary: " + summaryJson);
            } catch (IOException | RuntimeException e) {
                err.println("cannot write --summary-json " + summaryJson + ": " + e);
                code = ExitCodes.worse(code, ExitCodes.FAILED);
            }
        }
        out.flush();
        return code;
    }
}
