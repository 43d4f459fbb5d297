package io.upic.liftride.server.web;

import java.util.Collection;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/** Seasons as the API writes them: 4-digit strings ("0999", "2022"). Stateless. */
final class Seasons {
    private Seasons() {}

    static String format(int season) {
        String digits = Integer.toString(season);
        return digits.length() >= 4 ? digits : "0000".substring(digits.length()) + digits;
    }

    /** {@code [1, 2]}, sorted, each written by {@code format}. */
    static String sortedList(Collection<Integer> values, IntFunction<String> format) {
        return values.stream().sorted().map(format::apply).collect(Collectors.joining(", ", "[", "]"));
    }
}
