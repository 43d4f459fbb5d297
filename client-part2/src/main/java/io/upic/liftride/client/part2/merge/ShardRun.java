package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.part2.compare.CompareInputException;
import io.upic.liftride.client.part2.compare.PlanKey;
import io.upic.liftride.client.part2.compare.SummaryReader;
import io.upic.liftride.client.part2.metrics.TimeBuckets;
import io.upic.liftride.client.part2.report.HdrLog;
import io.upic.liftride.client.report.RunSummary;
import io.upic.liftride.client.report.SummaryJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One shard's run folder as a merge reads it, its whole record: {@code summary.json}, {@value HdrLog#FILE} and
 * {@value HdrLog#PER_BUCKET_FILE}. Immutable after loading (a merge adds the histograms into fresh ones).
 *
 * @param byTag     its histogram log by tag ("" every attempt)
 * @param perBucket its per-bucket log's histograms, each timed as its bucket on the wall clock (epoch ms)
 */
public record ShardRun(Path dir, RunSummary summary, Map<String, Histogram> byTag, List<Histogram> perBucket) {

    /** Reads the summary and the histogram logs of {@code dir}. */
    public static ShardRun load(Path dir) throws IOException {
        Path file = dir.resolve(SummaryJson.FILE);
        try {
            var runs = SummaryReader.parse(file);
            if (runs.size() != 1) {
                throw new IOException(file + " holds " + runs.size() + " runs, not one run's summary");
            }
            RunSummary summary = runs.get(0).summary();
            if (MergedSummary.CLIENT.equals(summary.client())) {
                throw new IOException(dir + " is a merge's output, not a shard's run folder");
            }
            return new ShardRun(
                    dir,
                    summary,
                    HdrLog.readByTag(dir.resolve(HdrLog.FILE)),
                    HdrLog.read(dir.resolve(HdrLog.PER_BUCKET_FILE)));
        } catch (CompareInputException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Adds the shard's time buckets into {@code buckets}, each at its middle on the wall clock. */
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

    /** The histogram with this tag, or null if the log has none (an empty scope). */
    public Histogram histogram(String tag) {
        return byTag.get(tag);
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

    /** The shard's request account. */
    public Requests requests() {
        RunSummary s = summary;
        return new Requests(s.planned(), s.successful(), s.failed(), s.notSent(), s.retries(), s.attempts());
    }

    /** The plan as a merge compares it: everything that must be equal for shards to add up to one plan. */
    public String planIdentity() {
        RunSummary s = summary;
        String mix = s.operations() == null ? "" : " --mix " + PlanKey.mix(s);
        String ramp = s.ramp() == null ? "" : " --ramp " + s.ramp().spec();
        return String.format(
                Locale.ROOT,
                "plan %s -t %d -s %d -l %d -m %d%s%s (resort %d, season %d, day %d)",
                s.plan(),
                s.threads(),
                s.skiers(),
                s.lifts(),
                s.meanRuns(),
                mix,
                ramp,
                s.resort(),
                s.season(),
                s.day());
    }
}
