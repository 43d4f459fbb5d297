package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** What users run, target/client-part1.jar: the client and the in-process server, nothing of the local cluster. */
class ShadedJarIT {
    private static final Path JAR = Path.of("target", "client-part1.jar");

    @Test
    void holdsTheClientAndTheEmbeddedServerButNothingOfTheLocalClusterOrItsTestKit() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " must be built by the package phase");
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            assertNotNull(jar.getEntry("io/upic/liftride/client/Main.class"));
            assertNotNull(
                    jar.getEntry("io/upic/liftride/server/embedded/EmbeddedServer.class"),
                    "the server it starts when no -i is given: the check below looks at the real layout");
            List<String> cluster = jar.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.startsWith("io/upic/liftride/cluster/")
                            || name.startsWith("io/upic/liftride/testkit/")
                            || name.endsWith("redis.conf"))
                    .toList();
            assertEquals(List.of(), cluster, "the local cluster ships as liftride-cluster.jar only");
        }
    }
}
