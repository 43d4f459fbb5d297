package io.upic.liftride.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The shipped Kubernetes manifests (cluster/k8s/manifests/*.yaml) as parsed YAML, and paths into them. Immutable. */
final class Manifests {

    /** The folder, relative to the module (the tests' working directory). */
    static final Path DIR = Path.of("manifests");

    private final List<Map<String, Object>> resources;

    private Manifests(List<Map<String, Object>> resources) {
        this.resources = List.copyOf(resources);
    }

    /** Every resource of every file in {@link #DIR}. */
    @SuppressWarnings("unchecked")
    static Manifests load() {
        List<Map<String, Object>> all = new ArrayList<>();
        try (var files = Files.list(DIR)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(f))) {
                    all.add((Map<String, Object>) doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
