package io.upic.liftride.client.part2.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines above a comparison's tables, shared by its renderers: the runs of each side, the plan, the band,
 * unlike plans compared anyway, and runs that were cut short. Stateless and thread-safe.
 */
final class CompareHeader {

    private CompareHeader() {}

    /** The header lines, without line ends. */
    static List<String> lines(RunComparison c) {
        List<String> l = new ArrayList<>();
        l.add("Baseline:  " + c.baseline().describe());
        l.add("Candidate: " + c.candidate().describe());
        if (c.planDifferences().isEmpty()) {
            l.add("Plan:      " + c.baseline().plan().describe());
        } else {
            l.add("Plans:     baseline " + c.baseline().plan().describe() + "; candidate "
                    + c.candidate().plan().describe());
            l.add("           UNLIKE PLANS compared (--allow-different-plans): "
                    + String.join(", ", c.planDifferences()));
        }
        l.add("Band:      " + c.band().describe()
                + " (a change past it the wrong way in the whole run is a regression: exit 3; phases are shown to"
                + " find where)");
        if (c.baseline().runs().size() > 1 || c.candidate().runs().size() > 1) {
            l.add("Several runs on a side: the median of its runs is compared, their range (min–max) in brackets");
        }
        l.add("Latency:   p50 to p99.9 of each run from its whole-run HdrHistogram (all attempts, microseconds,"
                + " 3 significant digits, capped at the exact max); mean and max exact; with several runs the median"
                + " of the runs' values. The percentile chart adds each side's latency.hlog histograms together");
        for (String caveat : c.caveats()) {
            l.add("CAUTION:   " + caveat);
        }
        for (Side s : List.of(c.baseline(), c.candidate())) {
            for (SummaryReader.Run r : s.runs()) {
                if (r.summary().stopped()) {
                    l.add("Note:      the " + s.name() + " run " + r.source() + " was stopped early");
                }
            }
        }
        return l;
    }
}
