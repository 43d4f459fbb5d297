package io.upic.liftride.server.web;

import java.util.Collection;
import java.util.stream.Collectors;

/** Seasons as the API writes them: 4-digit strings ("0999", "2022"). Stateless. */
final class Seasons {
    private Seasons() {}

    static String format(int season) {
        String digits = Integer.toString(season);
        return digits.length() >= 4 ? digits : "0000".substring(digits.length()) + digits;
    }

    static String formatAll(Collection<Integer> seasons) {
        return seasons.stream().sorted().map(Seasons::format).collect(Collectors.joining(", ", "[", "]"));
    }

    static String sortedList(Collection<Integer> ids) {
        return ids.stream().sorted().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}
