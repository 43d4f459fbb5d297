package io.upic.liftride.client.part2.merge;

import io.upic.liftride.client.part2.report.HdrLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One shard's run folder as a merge reads it: its record and its histograms. Immutable after loading (the
 * histograms belong to it; a merge adds them into fresh ones).
 *
 * @param dir       the run folder
 * @param record    its {@value ShardFiles#MERGE_INPUT}
 * @param byTag     its {@code latency.hlog} by tag: "" every attempt, "first", each phase's tag and its ".first"
 * @param perSecond its {@value ShardFiles#PER_SECOND_LOG} by each bucket's start (epoch ms)
 * @param perSecondIntended the same from the intended send (the open model; empty otherwise)
 */
public record ShardRun(
        Path dir,
        ShardRecord record,
        Map<String, Histogram> byTag,
        Map<Long, Histogram> perSecond,
        Map<Long, Histogram> perSecondIntended) {

    /** Reads the three files of {@code dir}. */
    public static ShardRun load(Path dir) throws IOException {
        return new ShardRun(
                dir,
                ShardFiles.readRecord(dir),
                ShardFiles.readByTag(dir.resolve(HdrLog.FILE)),
                ShardFiles.readPerSecond(dir.resolve(ShardFiles.PER_SECOND_LOG), ""),
                ShardFiles.readPerSecond(dir.resolve(ShardFiles.PER_SECOND_LOG), ShardFiles.INTENDED));
    }

    /** The histogram with this tag, or null if the log has none (an empty scope). */
    public Histogram histogram(String tag) {
        return byTag.get(tag);
    }
}
