package io.upic.liftride.client.engine;

import java.util.OptionalLong;

/** When one open-model worker's requests are due; implementations are immutable and thread-safe. */
interface Timetable {

    /** When request {@code i} (0-based) of this worker is due, as a {@code System.nanoTime()} value. */
    long intendedNanos(long i);

    /** When the worker's part of the plan ends, which it waits for after its last request; empty: at once. */
    default OptionalLong endNanos() {
        return OptionalLong.empty();
    }
}
