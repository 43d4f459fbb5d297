package io.upic.liftride.client.part2.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.SummaryJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MergeCommandTest {

    @TempDir
    Path work;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int merge(String... args) {
        return new MergeCommand(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        work)
                .run(args, "java -jar client-part2.jar");
    }

    private String firstErrorLine() {
        return err.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--out merged|merge needs at least one shard output folder",
                "a b|--out is required (a folder that can be created)",
                "a --out|--out needs a value (a folder that can be created)",
                "a --out m --bogus|unknown flag --bogus"
            })
    void badArgumentsAreOneLineWithTheHelpHintAndExit2(String args, String message) {
        assertEquals(2, merge(args.split(" ")));
        assertEquals(message + " (--help lists the options)\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFolderWithoutSummaryIsRefusedSayingSo() throws Exception {
        Files.createDirectories(work.resolve("empty/t8"));
        assertEquals(2, merge("empty", "--out", "merged"));
        assertEquals(
                "cannot merge: " + work.resolve("empty") + " holds no summary.json, neither itself nor a run folder"
                        + " in it (is it a client-part2 output folder?)",
                firstErrorLine());
        assertTrue(!Files.exists(work.resolve("merged")), "nothing written when refused");
    }

    @Test
    void anUnreadableSummaryIsRefusedNamingTheFile() throws Exception {
        Path run = Files.createDirectories(work.resolve("s1/t8"));
        Files.writeString(run.resolve(SummaryJson.FILE), "{not json");
        assertEquals(2, merge("s1", "--out", "merged"));
        assertTrue(firstErrorLine().startsWith("cannot merge t8: " + run.resolve(SummaryJson.FILE)), firstErrorLine());
    }

    @Test
    void helpPrintsTheUsageAndExits0() {
        assertEquals(0, merge("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--allow-missing"));
    }
}
