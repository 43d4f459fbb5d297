package io.upic.liftride.client.part2.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.part2.cli.Part2Options;
import io.upic.liftride.client.part2.compare.CompareCommand;
import io.upic.liftride.client.part2.merge.MergeCommand;
import io.upic.liftride.client.threshold.ThresholdCheck;
import io.upic.liftride.cluster.ClusterOptions;
import io.upic.liftride.flags.UsageException;
import io.upic.liftride.server.embedded.LaunchOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md and docs/*.md against the programs they document: every {@code --flag} they name for our jars is in that
 * jar's {@code --help}, and every exit code they give is the code's.
 *
 * <p>Which flags are ours: in a fenced block, the flags after {@code java ... -jar X.jar} on that line and its
 * {@code \}-continued lines, for X one of our jars (other commands in a block, such as mvn, curl or kubectl, are
 * never read); in prose, an inline code span that starts with {@code --} (any of our programs) or that runs one of our
 * jars (that program). Exit codes: every table headed {@code code} or {@code exit code} lists only the client's codes,
 * the table under an "Exit codes" heading lists all of them, a "first of A, B, ..." precedence is
 * {@link ExitCodes#worse}'s, and wherever a table row or a "N when ..." clause of a paragraph about exits names a
 * failed threshold, a bad flag, {@code --max-duration} passing or Ctrl-C, N is that case's code.
 */
class DocFlagsAndExitCodesTest {

    /** The JVM's exit code after SIGINT (Ctrl-C); no constant of ours holds it. */
    private static final int SIGINT = 130;

    /** Each jar's (and subcommand's) --help, rendered by its own option classes. */
    static final Map<String, String> HELP = help();

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*)$");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern JAR = Pattern.compile(
            "java\\b[^`|&;]*?-jar\\s+\\S*?(client-part1|client-part2|liftride-server|liftride-cluster)\\.jar"
                    + "(?:\\s+(merge|compare)\\b)?");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9-]*)");
    private static final Pattern CLAUSE = Pattern.compile("(?<![\\w.,-])(\\d{1,3}) (?:when|if|otherwise)\\b");
    private static final Pattern PRECEDENCE = Pattern.compile("first of ((?:\\d+, )+\\d+)");

    /** A case the docs describe in words, and the exit code the code gives it. */
    private static final Map<Pattern, Integer> CASES = Map.of(
            Pattern.compile("(?i)threshold[`\\s]*(?:failed|fails)"), ThresholdCheck.EXIT_CODE,
            Pattern.compile("(?i)bad flag"), UsageException.EXIT_CODE,
            Pattern.compile("--max-duration`?\\s+passe[sd]"), ExitCodes.DEADLINE,
            Pattern.compile("Ctrl-C"), SIGINT);

    /** Every code a client run can exit with. */
    private static final Set<Integer> CODES = Set.of(
            ExitCodes.OK,
            ExitCodes.FAILED,
            UsageException.EXIT_CODE,
            ThresholdCheck.EXIT_CODE,
            ExitCodes.UNCHECKED,
            ExitCodes.DEADLINE,
            SIGINT);

    @Test
    void everyFlagAndExitCodeTheDocsGiveIsTheCodes() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> files.add(ROOT.relativize(p)));
        }
        assertTrue(files.contains(Path.of("docs", "client.md")), files.toString());
        List<String> problems = check(ROOT, files);
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
    }

    @Test
    void aFlagMissingFromItsProgramsHelpIsReportedButNotAnotherCommandsFlag(@TempDir Path dir) throws IOException {
        write(
                dir,
                "```bash\nmvn -B --no-transfer-progress verify\n"
                        + "java -jar client-part2/target/client-part2.jar -t 8 --rate 100 \\\n    --no-such-flag\n"
                        + "java -jar client-part2.jar merge a b --out m --rate 5\n```\n\n"
                        + "Use `--shard K/N`, `--wibble`, `kubectl apply --dry-run=client` and"
                        + " `java -jar liftride-server.jar --port 0 --threads 4`.\n");
        assertEquals(
                List.of(
                        "a.md:4: --no-such-flag is not in client-part2's --help",
                        "a.md:5: --rate is not in client-part2 merge's --help",
                        "a.md:8: --wibble is in no program's --help",
                        "a.md:8: --threads is not in liftride-server's --help"),
                check(dir, List.of(Path.of("a.md"))));
    }

    @Test
    void anExitCodeThatIsNotTheCodesIsReported(@TempDir Path dir) throws IOException {
        write(
                dir,
                "## Exit codes\n\n| code | meaning |\n|---|---|\n| 0 | fine |\n| 1 | a `--threshold` failed |\n"
                        + "| 7 | odd |\n\nWhen several apply, the client exits with the first of 1, 5, 0.\n\n"
                        + "merge exits 0 when every `--threshold` holds, 1 when a request failed,\n"
                        + "or a threshold failed; 2 when a folder is missing.\n");
        assertEquals(
                List.of(
                        "a.md:6: exit code 1 for \"a `--threshold` failed\"; the code's is 3",
                        "a.md:7: exit code 7 is none of the client's " + new TreeSet<>(CODES),
                        "a.md:3: the exit-code table lists [0, 1, 7], the code has " + new TreeSet<>(CODES),
                        "a.md:9: precedence 1, 5, 0 is not the code's (5 before 1)",
                        "a.md:11: exit code 1 for \"1 when a request failed, or a threshold failed\"; the code's is 3"),
                check(dir, List.of(Path.of("a.md"))));
    }

    static List<String> check(Path root, List<Path> files) throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(root.resolve(file), StandardCharsets.UTF_8);
            flags(file.toString(), lines, problems);
            exitCodes(file.toString(), lines, problems);
        }
        return problems;
    }

    private static void flags(String file, List<String> lines, List<String> problems) {
        boolean fenced = false;
        String program = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = file + ":" + (i + 1) + ": ";
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                program = null;
            } else if (fenced) {
                Matcher jar = JAR.matcher(line);
                if (jar.find()) {
                    program = program(jar);
                    flagsIn(line.substring(jar.end()), program, where, problems);
                } else if (program != null) {
                    flagsIn(line, program, where, problems);
                }
                program = line.stripTrailing().endsWith("\\") ? program : null;
            } else {
                Matcher span = INLINE_CODE.matcher(line);
                while (span.find()) {
                    String code = span.group(1);
                    Matcher jar = JAR.matcher(code);
                    if (code.startsWith("--")) {
                        flagsIn(code, null, where, problems);
                    } else if (jar.find()) {
                        flagsIn(code.substring(jar.end()), program(jar), where, problems);
                    }
                }
            }
        }
    }

    private static String program(Matcher jar) {
        return jar.group(2) == null ? jar.group(1) : jar.group(1) + " " + jar.group(2);
    }

    /** Reports each flag in {@code text} missing from {@code program}'s help, or from every help when null. */
    private static void flagsIn(String text, String program, String where, List<String> problems) {
        Matcher flag = FLAG.matcher(text);
        while (flag.find()) {
            Pattern named = Pattern.compile("(?<![\\w-])--" + Pattern.quote(flag.group(1)) + "(?![\\w-])");
            if (program == null) {
                if (HELP.values().stream().noneMatch(help -> named.matcher(help).find())) {
                    problems.add(where + flag.group() + " is in no program's --help");
                }
            } else if (!named.matcher(HELP.get(program)).find()) {
                problems.add(where + flag.group() + " is not in " + program + "'s --help");
            }
        }
    }

    private static void exitCodes(String file, List<String> lines, List<String> problems) {
        boolean fenced = false;
        String heading = "";
        int tableLine = -1;
        List<Integer> tableCodes = new ArrayList<>();
        List<String> items = new ArrayList<>();
        List<Integer> itemLines = new ArrayList<>();
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            String where = file + ":" + (i + 1) + ": ";
            boolean fence = FENCE.matcher(line).find();
            fenced ^= fence;
            boolean row = !fenced && line.startsWith("|");
            if (!row && tableLine >= 0) {
                tableEnded(file + ":" + (tableLine + 1) + ": ", heading, tableCodes, problems);
                tableLine = -1;
            }
            boolean text = !fenced
                    && !fence
                    && !row
                    && !line.isBlank()
                    && !HEADING.matcher(line).find();
            if (text && (items.isEmpty() || line.startsWith("- "))) {
                items.add(line.strip());
                itemLines.add(i + 1);
            } else if (text) {
                items.set(items.size() - 1, items.get(items.size() - 1) + " " + line.strip());
            } else {
                for (int k = 0; k < items.size(); k++) {
                    prose(file + ":" + itemLines.get(k) + ": ", items.get(k), problems);
                }
                items.clear();
                itemLines.clear();
            }
            Matcher h = HEADING.matcher(line);
            if (!fenced && h.find()) {
                heading = h.group(1);
            }
            if (row) {
                List<String> cells = Arrays.stream(line.split("\\|"))
                        .map(c -> c.strip().replace("`", ""))
                        .toList();
                if (cells.size() > 2 && cells.get(1).matches("(?i)(exit )?code")) {
                    tableLine = i;
                    tableCodes.clear();
                } else if (tableLine >= 0 && cells.get(1).matches("\\d+")) {
                    int code = Integer.parseInt(cells.get(1));
                    tableCodes.add(code);
                    if (!CODES.contains(code)) {
                        problems.add(where + "exit code " + code + " is none of the client's " + new TreeSet<>(CODES));
                    }
                    String meaning = line.substring(line.indexOf('|', line.indexOf(cells.get(1))) + 1);
                    cases(where, code, meaning.replaceAll("\\|\\s*$", ""), problems);
                }
            }
        }
    }

    private static void tableEnded(String where, String heading, List<Integer> codes, List<String> problems) {
        if (heading.equalsIgnoreCase("Exit codes") && !new TreeSet<>(codes).equals(new TreeSet<>(CODES))) {
            problems.add(where + "the exit-code table lists " + codes + ", the code has " + new TreeSet<>(CODES));
        }
    }

    /** A paragraph (or list item) that speaks of exits: its precedence and its "N when ..." clauses. */
    private static void prose(String where, String item, List<String> problems) {
        if (!item.toLowerCase(Locale.ROOT).contains("exit")) {
            return;
        }
        Matcher precedence = PRECEDENCE.matcher(item);
        if (precedence.find()) {
            precedence(where, precedence.group(1), problems);
        }
        Matcher clause = CLAUSE.matcher(item);
        List<Integer> starts = new ArrayList<>();
        while (clause.find()) {
            starts.add(clause.start());
        }
        starts.add(item.length());
        for (int k = 0; k + 1 < starts.size(); k++) {
            String text = item.substring(starts.get(k), starts.get(k + 1)).replaceAll("[;,]\\s*$", "");
            cases(where, Integer.parseInt(text.substring(0, text.indexOf(' '))), text, problems);
        }
    }

    private static void precedence(String where, String listed, List<String> problems) {
        List<Integer> codes =
                Arrays.stream(listed.split(", ")).map(Integer::valueOf).collect(Collectors.toList());
        for (int k = 0; k + 1 < codes.size(); k++) {
            int a = codes.get(k);
            int b = codes.get(k + 1);
            try {
                if (ExitCodes.worse(a, b) != a) {
                    problems.add(where + "precedence " + listed + " is not the code's (" + b + " before " + a + ")");
                    return;
                }
            } catch (IllegalArgumentException e) {
                problems.add(where + "precedence " + listed + ": " + e.getMessage());
                return;
            }
        }
    }

    /** Reports {@code code} given for a case whose code the code decides otherwise. */
    private static void cases(String where, int code, String meaning, List<String> problems) {
        CASES.forEach((words, expected) -> {
            if (words.matcher(meaning).find() && code != expected) {
                problems.add(
                        where + "exit code " + code + " for \"" + meaning.strip() + "\"; the code's is " + expected);
            }
        });
    }

    private static Map<String, String> help() {
        Map<String, String> help = new LinkedHashMap<>();
        help.put("client-part1", RunOptions.usage("client-part1"));
        help.put("client-part2", Part2Options.usage("client-part2"));
        help.put("client-part2 merge", MergeCommand.usage("client-part2"));
        help.put("client-part2 compare", CompareCommand.usage("client-part2"));
        help.put("liftride-server", LaunchOptions.USAGE);
        help.put("liftride-cluster", ClusterOptions.USAGE);
        return help;
    }

    private static void write(Path dir, String text) throws IOException {
        Files.writeString(dir.resolve("a.md"), text, StandardCharsets.UTF_8);
    }
}
