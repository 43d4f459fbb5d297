package io.upic.liftride.client.engine;

import io.upic.liftride.client.plan.Ramp;
import java.util.OptionalLong;

/**
 * One worker's part of a {@link Ramp} stage: thread {@code w} of the stage's {@code threads} sends the stage's
 * requests {@code w}, {@code w + threads}, ... at the times the ramp gives them, and its part ends with the stage.
 * Immutable and thread-safe.
 *
 * @param times       the stage's send times, from the ramp's start
 * @param threadIndex w, in {@code 0..threads - 1}
 * @param threads     the stage's threads in the whole (unsharded) plan
 * @param originNanos {@code System.nanoTime()} at the ramp's start
 */
record RampSchedule(Ramp.StageTimes times, int threadIndex, int threads, long originNanos) implements Timetable {

    RampSchedule {
        if (threadIndex < 0 || threadIndex >= threads) {
            throw new IllegalArgumentException("threadIndex not in 0.." + (threads - 1) + ": " + threadIndex);
        }
    }

    @Override
    public long intendedNanos(long i) {
        return originNanos + times.dueNanos(threadIndex + i * threads);
    }

    @Override
    public OptionalLong endNanos() {
        return OptionalLong.of(originNanos + times.startNanos() + times.durationNanos());
    }
}
