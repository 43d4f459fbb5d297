package io.upic.liftride.client.part2.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleFunction;

/**
 * One metric over the runs of one side: their median and the range they span. One run: all three equal.
 * Immutable and thread-safe.
 *
 * @param median the middle value; with an even count the mean of the two middle ones
 * @param min    the least value
 * @param max    the greatest value
 * @param runs   how many runs gave a value (at least 1)
 */
public record Spread(double median, double min, double max, int runs) {

    public Spread {
        if (runs < 1) {
            throw new IllegalArgumentException("runs < 1: " + runs);
        }
        if (!(min <= median && median <= max)) {
            throw new IllegalArgumentException("not min <= median <= max: " + min + ", " + median + ", " + max);
        }
    }

    /** The spread of the values that are not null; null when none is (no run measured the metric). */
    public static Spread of(List<Double> values) {
        List<Double> v = new ArrayList<>();
        for (Double d : values) {
            if (d != null && !d.isNaN()) {
                v.add(d);
            }
        }
        if (v.isEmpty()) {
            return null;
        }
        Collections.sort(v);
        int n = v.size();
        double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
        return new Spread(median, v.get(0), v.get(n - 1), n);
    }

    /** A single run's value. */
    public static Spread of(double value) {
        return of(List.of(value));
    }

    /** {@code median} with {@code format}, and {@code (min–max)} after it when the runs gave different values. */
    public String text(DoubleFunction<String> format) {
        Objects.requireNonNull(format, "format");
        String m = format.apply(median);
        return min < max ? m + " (" + format.apply(min) + "–" + format.apply(max) + ")" : m;
    }
}
