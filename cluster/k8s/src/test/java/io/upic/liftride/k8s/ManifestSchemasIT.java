package io.upic.liftride.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.cluster.Programs;
import io.upic.liftride.testkit.Shell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every shipped manifest against the Kubernetes API's own schemas, offline and strict (no unknown field):
 * kubernetes-validate from PyPI, which bundles them, installed by pip into ~/.cache/liftride the first time.
 * The oldest version checked is the first whose Jobs take podReplacementPolicy.
 */
class ManifestSchemasIT {

    private static final String VERSION = "1.37.0";

    private static Programs.Result validate(String kubernetes, List<Path> files) {
        Path tool = Shell.requirePip("kubernetes-validate", "kubernetes-validate", VERSION);
        List<String> command = new ArrayList<>(List.of(tool.toString(), "--strict", "-k", kubernetes));
        files.forEach(f -> command.add(f.toString()));
        return Programs.exec(Duration.ofMinutes(2), command);
    }

    @ParameterizedTest(name = "Kubernetes {0}")
    @ValueSource(strings = {"1.29.0", "1.37.0"})
    void everyResourceOfEveryManifestIsValid(String kubernetes) throws Exception {
        List<Path> files;
        try (var list = Files.list(Manifests.DIR)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        Programs.Result r = validate(kubernetes, files);
        assertEquals(0, r.exitCode(), r.output());
        for (String resource : List.of(
                "persistentvolumeclaim/liftride-results",
                "service/liftride-results",
                "job/liftride-load",
                "job/liftride-merge",
                "statefulset/redis",
                "deployment/liftride",
                "service/liftride",
                "poddisruptionbudget/liftride",
                "secret/liftride-store")) {
            assertTrue(r.output().contains("passed for resource " + resource), resource + " in\n" + r.output());
        }
    }

    @Test
    void aManifestWithAMisspelledOrMistypedFieldFails(@TempDir Path dir) throws Exception {
        String load = Files.readString(Manifests.DIR.resolve("load.yaml"));
        Path bad = dir.resolve("load.yaml");
        Files.writeString(bad, load.replace("podReplacementPolicy: Failed", "podReplacementPolicies: Failed"));
        Programs.Result r = validate(VERSION, List.of(bad));
        assertEquals(1, r.exitCode(), r.output());
        assertTrue(r.output().contains("podReplacementPolicies"), r.output());
    }
}
