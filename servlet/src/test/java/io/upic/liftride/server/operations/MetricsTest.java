package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.store.UnavailableCause;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MetricsTest {
    private static final Pattern UNAVAILABLE = Pattern.compile("liftride_unavailable_total\\{cause=\"([a-z_]+)\"}");

    @Test
    void countsEachUnavailableCauseInItsOwnSeriesUnderTheLabelsTheDocsName() throws IOException {
        try (Metrics metrics = new Metrics()) {
            for (UnavailableCause cause : UnavailableCause.values()) {
                for (int i = 0; i <= cause.ordinal(); i++) {
                    metrics.unavailable(cause);
                }
            }
            String text = metrics.scrape();
            for (UnavailableCause cause : UnavailableCause.values()) {
                String series = "liftride_unavailable_total{cause=\"" + cause.label() + "\"} " + (cause.ordinal() + 1);
                assertTrue(text.contains(series + ".0\n"), series + " missing from:\n" + text);
            }
            Set<String> exposed = new TreeSet<>();
            Matcher m = UNAVAILABLE.matcher(text);
            while (m.find()) {
                exposed.add(m.group(1));
            }
            assertEquals(documentedCauses(), exposed, "docs/operating.md's cause labels");
        }
    }

    /** The {@code cause} labels docs/operating.md lists in its metrics table. */
    private static Set<String> documentedCauses() throws IOException {
        String row = Files.readAllLines(Path.of("..", "docs", "operating.md")).stream()
                .filter(line -> line.startsWith("| `liftride_unavailable_total`"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/operating.md has no liftride_unavailable_total row"));
        Set<String> labels = new TreeSet<>();
        Matcher m = Pattern.compile("`([a-z_]+)`").matcher(row.split("\\|")[2]);
        while (m.find()) {
            labels.add(m.group(1));
        }
        labels.remove("cause");
        return labels;
    }
}
