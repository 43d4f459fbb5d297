package io.upic.liftride.client.part2.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.flags.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Part2OptionsTest {

    @TempDir
    Path work;

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 23, 8, 5, 9);

    @Test
    void withoutOutEachRunGetsAFreshTimestampedFolderUnderDataRuns() throws Exception {
        ParsedArgs a = Part2Options.parse(new String[] {"-t", "4", "-s", "100"});
        Path first = Part2Options.outputDir(a.commandLine(), work, NOW);
        Path second = Part2Options.outputDir(a.commandLine(), work, NOW);
        assertEquals(work.resolve("data/runs/2026-11-23T08-05-09"), first);
        assertEquals(work.resolve("data/runs/2026-11-23T08-05-09-2"), second);
        assertTrue(Files.isDirectory(first) && Files.isDirectory(second));
    }

    @Test
    void outIsCreatedRelativeToTheWorkingDirectory() throws Exception {
        ParsedArgs a = Part2Options.parse(new String[] {"-t", "4", "-s", "100", "--out", "x/y"});
        assertEquals(work.resolve("x/y"), Part2Options.outputDir(a.commandLine(), work, NOW));
        assertTrue(Files.isDirectory(work.resolve("x/y")));
    }

    @Test
    void anOutThatCannotBeAFolderIsAUsageError() throws Exception {
        Files.writeString(work.resolve("file"), "not a folder");
        ParsedArgs a = Part2Options.parse(new String[] {"-t", "4", "-s", "100", "--out", "file/sub"});
        UsageException e = assertThrows(UsageException.class, () -> Part2Options.outputDir(a.commandLine(), work, NOW));
        assertTrue(e.getMessage().startsWith("--out must be a folder"), e.getMessage());
    }

    @Test
    void part1sFlagsAndThreadListsAreParsedByPart1() throws Exception {
        ParsedArgs a = Part2Options.parse(new String[] {"-t", "32,64,128,256", "-s", "20000", "-l", "40", "-m", "10"});
        assertEquals(List.of(32, 64, 128, 256), a.threadCounts());
        assertEquals(4, a.threadCounts().size());
        assertEquals(40, a.config().workload().lifts());
        String[] bad = {"-t", "32,0", "-s", "5"};
        UsageException ours = assertThrows(UsageException.class, () -> Part2Options.parse(bad));
        UsageException part1s = assertThrows(UsageException.class, () -> RunOptions.parse(bad));
        assertEquals(part1s.getMessage(), ours.getMessage()); // one rule, one message
    }

    @Test
    void theUsageListsOutBesidePart1sFlags() {
        String usage = Part2Options.usage("java -jar client-part2.jar");
        assertTrue(usage.contains("--out <DIR>"), usage);
        assertTrue(usage.contains("--threads"), usage);
    }
}
