package io.upic.liftride.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directory trees the cluster and the tests leave behind: run directories, Redis's data. Stateless. */
public final class Trees {
    private Trees() {}

    /** Deletes {@code root} and everything under it, deepest first; what cannot be deleted is left (harmless). */
    public static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a temp directory left behind is harmless
        }
    }

    /** A new directory under the system's temp directory, named {@code prefix} and a random number. */
    public static Path temp(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory " + prefix + "*", e);
        }
    }
}
