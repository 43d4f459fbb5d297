package io.upic.liftride.client.part2.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks Markdown files under one root as GitHub renders them: no heading repeated within a file (outside fenced
 * code), every relative link and {@code #anchor} resolving (the file exists; the anchor is a heading's slug by
 * GitHub's rules), and every fenced block after a {@code <!-- console: NAME -->} marker equal to what the renderer
 * NAME prints. Not thread-safe (it caches parsed files).
 */
final class MarkdownDocs {

    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})(.*)$");
    private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("(`+).+?\\1");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*console:\\s*(\\S+)\\s*-->\\s*$");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:|^//");

    private final Path root;
    private final Map<String, Supplier<String>> renderers;
    private final Map<Path, Parsed> parsed = new HashMap<>();

    /**
     * @param root      the repository's root; links may not leave it
     * @param renderers console renderers by the name a marker gives
     */
    MarkdownDocs(Path root, Map<String, Supplier<String>> renderers) {
        this.root = root.toAbsolutePath().normalize();
        this.renderers = Map.copyOf(renderers);
    }

    /** Every problem in {@code files} (paths relative to the root), one line each: {@code file:line: what}. */
    List<String> check(List<Path> files) {
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            Path absolute = root.resolve(file).normalize();
            Parsed doc = parse(absolute);
            String name = root.relativize(absolute).toString().replace('\\', '/');
            doc.repeated.forEach(h ->
                    problems.add(name + ":" + h.line + ": heading repeated (line " + h.firstLine + "): " + h.text));
            for (Link link : doc.links) {
                String why = resolve(absolute, link.target);
                if (why != null) {
                    problems.add(name + ":" + link.line + ": link " + link.target + ": " + why);
                }
            }
            for (Console block : doc.consoles) {
                String why = compare(block);
                if (why != null) {
                    problems.add(name + ":" + block.line + ": console " + block.name + ": " + why);
                }
            }
        }
        return problems;
    }

    /**
     * GitHub's anchor for a heading: its text without markup, lower-cased, every character but letters, digits,
     * marks, {@code _}, {@code -} and spaces dropped, spaces turned into {@code -}.
     */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                .replaceAll("<[^>]+>", "")
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c)
                    || c == '_'
                    || c == '-'
                    || Character.getType(c) == Character.NON_SPACING_MARK) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /** Why {@code target}, linked from {@code from}, does not resolve; null when it does or is not relative. */
    private String resolve(Path from, String target) {
        if (target.isEmpty() || SCHEME.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? "" : target.substring(hash + 1);
        Path file = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
        if (!file.startsWith(root)) {
            return "points outside the repository";
        }
        if (!Files.exists(file)) {
            return "no such file " + root.relativize(file).toString().replace('\\', '/');
        }
        if (anchor.isEmpty() || !file.getFileName().toString().endsWith(".md") || Files.isDirectory(file)) {
            return null;
        }
        Set<String> anchors = parse(file).anchors.keySet();
        return anchors.contains(anchor) ? null : "no heading with the anchor #" + anchor;
    }

    private String compare(Console block) {
        Supplier<String> renderer = renderers.get(block.name);
        if (renderer == null) {
            return "no renderer of that name (registered: "
                    + String.join(", ", renderers.keySet().stream().sorted().toList()) + ")";
        }
        if (block.text == null) {
            return "the marker is not followed by a fenced block";
        }
        String expected = renderer.get().replace("\r\n", "\n").stripTrailing();
        return block.text.stripTrailing().equals(expected)
                ? null
                : "the block is not what the code prints; it prints:\n" + expected;
    }

    private Parsed parse(Path file) {
        return parsed.computeIfAbsent(file, f -> {
            try {
                return Parsed.of(Files.readAllLines(f, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private record Heading(int line, int firstLine, String text) {}

    private record Link(int line, String target) {}

    /** A marked block: its marker's line, the renderer's name, and the block's text (null without a block). */
    private record Console(int line, String name, String text) {}

    /** One file's headings (anchor to line), repeated headings, links outside code, and marked console blocks. */
    private record Parsed(
            Map<String, Integer> anchors, List<Heading> repeated, List<Link> links, List<Console> consoles) {

        static Parsed of(List<String> lines) {
            Map<String, Integer> anchors = new LinkedHashMap<>();
            Map<String, Integer> firstBySlug = new HashMap<>();
            List<Heading> repeated = new ArrayList<>();
            List<Link> links = new ArrayList<>();
            List<Console> consoles = new ArrayList<>();
            String fence = null; // the open fence's characters, or null outside a fenced block
            StringBuilder block = null; // the marked block being read
            String marker = null;
            int markerLine = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int number = i + 1;
                Matcher f = FENCE.matcher(line);
                if (fence != null) {
                    if (f.matches()
                            && f.group(1).charAt(0) == fence.charAt(0)
                            && f.group(1).length() >= fence.length()
                            && f.group(2).isBlank()) {
                        fence = null;
                        if (block != null) {
                            consoles.add(new Console(markerLine, marker, block.toString()));
                            block = null;
                            marker = null;
                        }
                    } else if (block != null) {
                        block.append(block.isEmpty() ? "" : "\n").append(line);
                    }
                    continue;
                }
                if (f.matches()) {
                    fence = f.group(1);
                    if (marker != null) {
                        block = new StringBuilder();
                    }
                    continue;
                }
                Matcher m = MARKER.matcher(line);
                if (m.matches()) {
                    marker = m.group(1);
                    markerLine = number;
                    continue;
                }
                if (marker != null && !line.isBlank()) {
                    consoles.add(new Console(markerLine, marker, null));
                    marker = null;
                }
                Matcher h = HEADING.matcher(line);
                if (h.matches()) {
                    String slug = slug(h.group(1));
                    Integer first = firstBySlug.putIfAbsent(slug, number);
                    if (first != null) {
                        repeated.add(new Heading(number, first, h.group(1)));
                    }
                    String anchor = slug;
                    for (int k = 1; anchors.containsKey(anchor); k++) {
                        anchor = slug + "-" + k;
                    }
                    anchors.put(anchor, number);
                }
                Matcher l = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
                while (l.find()) {
                    links.add(new Link(number, l.group(1)));
                }
            }
            if (marker != null) {
                consoles.add(new Console(markerLine, marker, null));
            }
            return new Parsed(anchors, repeated, links, consoles);
        }
    }
}
