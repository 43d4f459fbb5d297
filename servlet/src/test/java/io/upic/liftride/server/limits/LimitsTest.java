package io.upic.liftride.server.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimitsTest {
    @AfterEach
    void clearProperties() {
        System.clearProperty(Limit.RESORTS.property());
        System.clearProperty(Limit.RESORT_DAYS.property());
    }

    private static final Pattern DOCUMENTED = Pattern.compile("([\\d,]+)(?:%|( s))? *[|(] *$");

    /** docs/server.md's limits table, which operators read, states the values that apply when nothing is set. */
    @Test
    void theDefaultsAreTheOnesTheServerPageDocuments() throws IOException {
        List<String> rows = Files.readAllLines(Path.of("..", "docs", "server.md"));
        Limits limits = Limits.resolve(name -> null);
        for (Limit limit : Limit.values()) {
            if (System.getenv(limit.env()) != null) {
                continue; // the environment of this build sets it
            }
            String names = "`--" + limit.flag() + "` / `" + limit.property() + "` / `" + limit.env() + "`";
            String row = rows.stream()
                    .filter(r -> r.contains(names))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("docs/server.md has no row for " + names));
            // the value just before the names: "| 1,000 | names", "| 50% | names" or "| 10 s (names"
            Matcher value = DOCUMENTED.matcher(row.substring(0, row.indexOf(names)));
            assertTrue(value.find(), row);
            int documented = Integer.parseInt(value.group(1).replace(",", ""));
            assertEquals(value.group(2) == null ? documented : documented * 1_000, limits.get(limit), row);
        }
    }

    @Test
    void theLaunchersValueWinsOverTheSystemProperty() {
        System.setProperty(Limit.RESORTS.property(), "2000");
        System.setProperty(Limit.RESORT_DAYS.property(), "300");
        Limits limits = Limits.resolve(Map.of(Limit.RESORTS.property(), "50")::get);
        assertEquals(50, limits.get(Limit.RESORTS));
        assertEquals(300, limits.get(Limit.RESORT_DAYS), "the property where the launcher says nothing");
    }

    @Test
    void aBadValueIsOneLineNamingTheFlagPropertyAndVariable() {
        System.setProperty(Limit.RESORT_DAYS.property(), "lots");
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> Limits.resolve(name -> null));
        assertEquals(
                "--max-days / liftride.maxResortDays / LIFTRIDE_MAX_RESORT_DAYS must be an integer in 1..2147483647,"
                        + " got \"lots\"",
                error.getMessage());
    }

    @Test
    void withChecksTheRange() {
        assertEquals(20, Limits.DEFAULTS.with(Limit.RESORTS, 20).count(Limit.RESORTS));
        assertThrows(IllegalArgumentException.class, () -> Limits.DEFAULTS.with(Limit.RESORTS, 9));
        assertThrows(IllegalArgumentException.class, () -> Limits.DEFAULTS.with(Limit.BODY_DEADLINE_MILLIS, 99));
    }
}
