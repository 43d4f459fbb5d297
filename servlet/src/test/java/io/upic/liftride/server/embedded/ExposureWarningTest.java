package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The launcher warns, in one line, when bound where other machines reach it without a proxy in front. */
class ExposureWarningTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "::1", "localhost"})
    void aLoopbackBindIsNotWarnedAbout(String host) {
        assertEquals(Optional.empty(), EmbeddedServer.exposureWarning(host));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "10.0.1.11", "203.0.113.7"})
    void anyOtherBindGetsOneLineNamingTheAddressAndTheProxy(String host) {
        String line = EmbeddedServer.exposureWarning(host).orElseThrow();
        assertTrue(line.contains(host) && line.contains("nginx") && !line.contains("\n"), line);
    }
}
