package io.upic.liftride.client.part2.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.report.ConsoleExamples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's Markdown (README.md, docs/, every other tracked *.md but the runs under data/runs) as GitHub shows
 * it: no heading repeated in a file, no relative link or anchor that does not resolve, no console example that the
 * code no longer prints; and the checker itself, on small bad inputs.
 */
class MarkdownDocsTest {

    /**
     * The console examples the docs show, by the name their marker gives: each renders fixed inputs through the real
     * printer. To show new console output in the docs, add a renderer here and put {@code <!-- console: NAME -->}
     * before its fenced block.
     */
    static final Map<String, Supplier<String>> RENDERERS = Map.of(
            "prediction-miss",
            ConsoleExamples::predictionMiss,
            "thresholds",
            ConsoleExamples::thresholds,
            "brief-run",
            ConsoleExamples::briefAccount);

    /** The repository's root: the module's parent (Surefire runs in the module's folder). */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theRepositorysMarkdownHasNoRepeatedHeadingNoBrokenLinkAndNoStaleConsoleExample() throws Exception {
        List<Path> files = markdownFiles();
        assertTrue(
                files.contains(Path.of("README.md")) && files.contains(Path.of("docs", "model.md")),
                "README.md and docs/model.md are checked: " + files);
        List<String> problems = new MarkdownDocs(ROOT, RENDERERS).check(files);
        assertTrue(problems.isEmpty(), problems.size() + " problems:\n" + String.join("\n", problems));
    }

    @Test
    void aHeadingRepeatedInOneFileIsReportedButNotOneInsideFencedCode(@TempDir Path dir) throws IOException {
        write(dir, "a.md", "# A\n\n## Setup\n\ntext\n\n## Setup\n");
        write(dir, "b.md", "# B\n\n```\n# B\n```\n\n## Two\n");
        List<String> problems = check(dir, "a.md", "b.md");
        assertEquals(List.of("a.md:7: heading repeated (line 3): Setup"), problems);
    }

    @Test
    void aRelativeLinkToAMissingFileIsReported(@TempDir Path dir) throws IOException {
        write(
                dir,
                "a.md",
                "# A\n\nSee [b](b.md), [data](data/x.csv), [gone](docs/gone.md) and [up](../../etc/passwd).\n");
        write(dir, "b.md", "# B\n");
        write(dir, "data/x.csv", "x\n");
        List<String> problems = check(dir, "a.md");
        assertEquals(
                List.of(
                        "a.md:3: link docs/gone.md: no such file docs/gone.md",
                        "a.md:3: link ../../etc/passwd: points outside the repository"),
                problems);
    }

    @Test
    void anAnchorMustBeAHeadingsSlugInTheLinkedFileOrThisOne(@TempDir Path dir) throws IOException {
        write(
                dir,
                "a.md",
                "# A\n\n## The open model: `--rate R`\n\n[ok](#the-open-model---rate-r) [ok](b.md#reporthtml-one-page)"
                        + " [bad](#the-open-model) [bad](b.md#Report)\n");
        write(dir, "b.md", "# B\n\n## report.html: one page\n");
        List<String> problems = check(dir, "a.md");
        assertEquals(
                List.of(
                        "a.md:5: link #the-open-model: no heading with the anchor #the-open-model",
                        "a.md:5: link b.md#Report: no heading with the anchor #Report"),
                problems);
    }

    @Test
    void linksInsideCodeAndExternalLinksAreNotChecked(@TempDir Path dir) throws IOException {
        write(
                dir,
                "a.md",
                "# A\n\n`[x](missing.md)` and [web](https://example.com/x.md#y) <https://example.com>\n\n```\n"
                        + "[x](missing.md)\n```\n");
        assertEquals(List.of(), check(dir, "a.md"));
    }

    @Test
    void slugsFollowGithubsRules() {
        assertEquals("littles-law", MarkdownDocs.slug("Little's law"));
        assertEquals("the-naive-prediction-n--w", MarkdownDocs.slug("The naive prediction: N / W"));
        assertEquals("reporthtml", MarkdownDocs.slug("report.html"));
        assertEquals("see-the-docs", MarkdownDocs.slug("See [the docs](docs/a.md)"));
        assertEquals("stage-1-a-single-instance", MarkdownDocs.slug("Stage 1: a single instance"));
    }

    @Test
    void aConsoleBlockMustBeWhatItsRendererPrints(@TempDir Path dir) throws IOException {
        Map<String, Supplier<String>> renderers = Map.of("hello", () -> "Hello\n  world\n");
        write(dir, "same.md", "# A\n\n<!-- console: hello -->\n```\nHello\n  world\n```\n");
        write(dir, "stale.md", "# A\n\n<!-- console: hello -->\n```\nHello\n  there\n```\n");
        write(dir, "unknown.md", "# A\n\n<!-- console: goodbye -->\n```\nBye\n```\n");
        write(dir, "bare.md", "# A\n\n<!-- console: hello -->\nHello world\n");
        List<String> problems = new MarkdownDocs(dir, renderers)
                .check(Stream.of("same.md", "stale.md", "unknown.md", "bare.md")
                        .map(Path::of)
                        .toList());
        assertEquals(
                List.of(
                        "stale.md:3: console hello: the block is not what the code prints; it prints:\nHello\n  world",
                        "unknown.md:3: console goodbye: no renderer of that name (registered: hello)",
                        "bare.md:3: console hello: the marker is not followed by a fenced block"),
                problems);
    }

    @Test
    void everyRendererPrintsSomething() {
        RENDERERS.forEach((name, renderer) -> assertTrue(renderer.get().lines().count() > 1, name));
    }

    private static List<String> check(Path dir, String... files) {
        return new MarkdownDocs(dir, RENDERERS)
                .check(Stream.of(files).map(Path::of).toList());
    }

    private static void write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Tracked *.md files but data/runs (from git), plus README.md and docs/*.md as they are on disk. */
    private static List<Path> markdownFiles() throws IOException, InterruptedException {
        TreeSet<Path> files = new TreeSet<>();
        Process git = new ProcessBuilder("git", "ls-files", "-z", "--", "*.md")
                .directory(ROOT.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String listed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0) {
            for (String name : listed.split("\0")) {
                if (!name.isEmpty() && !name.startsWith("data/runs/") && Files.exists(ROOT.resolve(name))) {
                    files.add(Path.of(name));
                }
            }
        }
        files.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).forEach(p -> files.add(ROOT.relativize(p)));
        }
        return new ArrayList<>(files);
    }
}
