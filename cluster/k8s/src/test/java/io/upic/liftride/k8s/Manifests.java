package io.upic.liftride.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The shipped Kubernetes manifests (cluster/k8s/manifests/*.yaml, or load.sh's rendering of them) as parsed YAML,
 * and paths into them. Immutable.
 */
final class Manifests {

    /** The folder, relative to the module (the tests' working directory). */
    static final Path DIR = Path.of("manifests");

    private final List<Map<String, Object>> resources;

    private Manifests(List<Map<String, Object>> resources) {
        this.resources = List.copyOf(resources);
    }

    /** Every resource of every file in {@link #DIR}. */
    static Manifests load() {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(DIR)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                all.append(Files.readString(f)).append("\n---\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return parse(all.toString());
    }

    /** What {@code load.sh SHARDS START} prints: the load and merge Jobs for {@code shards} shards. */
    static Manifests rendered(int shards, String start) {
        try {
            Process sh = new ProcessBuilder("sh", "load.sh", Integer.toString(shards), start)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String yaml = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (sh.waitFor() != 0) {
                throw new AssertionError("load.sh " + shards + " " + start + " exited " + sh.exitValue());
            }
            return parse(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Every resource of a multi-document YAML text. */
    @SuppressWarnings("unchecked")
    static Manifests parse(String yaml) {
        List<Map<String, Object>> all = new ArrayList<>();
        for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
            if (doc != null) {
                all.add((Map<String, Object>) doc);
            }
        }
        return new Manifests(all);
    }

    /** The resource of {@code kind} named {@code name}; fails when there is none. */
    Map<String, Object> get(String kind, String name) {
        return resources.stream()
                .filter(r -> kind.equals(r.get("kind")) && name.equals(at(r, "metadata.name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in " + DIR));
    }

    /** The value at a dotted path ({@code spec.template.spec.containers.0.args}); null where there is none. */
    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String path) {
        Object here = node;
        for (String key : path.split("\\.")) {
            if (here instanceof Map<?, ?> map) {
                here = map.get(key);
            } else if (here instanceof List<?> list && key.chars().allMatch(Character::isDigit)) {
                int i = Integer.parseInt(key);
                here = i < list.size() ? list.get(i) : null;
            } else {
                return null;
            }
        }
        return (T) here;
    }

    /** The value after {@code flag} in {@code args}; fails when the flag is absent. */
    static String valueOf(List<String> args, String flag) {
        int i = args.indexOf(flag);
        if (i < 0 || i + 1 >= args.size()) {
            throw new AssertionError(flag + " with a value is not in " + args);
        }
        return args.get(i + 1);
    }

    /** {@code args} with the value after {@code flag} replaced by {@code value}. */
    static List<String> withValue(List<String> args, String flag, String value) {
        valueOf(args, flag);
        List<String> changed = new ArrayList<>(args);
        changed.set(changed.indexOf(flag) + 1, value);
        return changed;
    }
}
