package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;

class ConnectorSettingsTest {
    @Test
    void standaloneServerXmlCarriesTheLaunchersConnectorSettings() throws IOException {
        String serverXml = Files.readString(Path.of("tomcat", "server.xml"), StandardCharsets.UTF_8);
        String connector = ConnectorSettings.LOAD_TEST.serverXmlConnector(
                "${liftride.http.port:-8080}", "${liftride.http.address:-0.0.0.0}");
        assertTrue(
                serverXml.contains(connector),
                () -> "servlet/tomcat/server.xml must contain exactly\n" + connector
                        + "\n(update the file when ConnectorSettings change)");
    }

    @Test
    void keepAliveIsUnlimitedForLoadTests() {
        assertEquals(-1, ConnectorSettings.LOAD_TEST.maxKeepAliveRequests());
        assertEquals("-1", ConnectorSettings.LOAD_TEST.attributes().get("maxKeepAliveRequests"));
    }

    @Test
    void tomcatAcceptsEverySetting() {
        Connector connector = new Connector("HTTP/1.1");
        ConnectorSettings.LOAD_TEST.applyTo(connector);
        assertEquals(4096, connector.getMaxPostSize());
        // maxKeepAliveRequests reads as 1 until the socket is bound; KeepAliveIT checks it on a running server
        assertEquals(256, connector.getProperty("maxThreads"));
        assertEquals(10_000, connector.getProperty("connectionTimeout"));
    }

    @Test
    void aOneCpuServerRunsAFewRequestThreadsAndALargerOneTheLoadTestPool() {
        ConnectorSettings small = ConnectorSettings.forProcessors(1);
        assertEquals(ConnectorSettings.ONE_CPU_THREADS, small.maxThreads());
        assertEquals(ConnectorSettings.ONE_CPU_THREADS, small.minSpareThreads());
        assertEquals(ConnectorSettings.LOAD_TEST.withThreads(4, 4), small);
        assertEquals(ConnectorSettings.LOAD_TEST, ConnectorSettings.forProcessors(2));
        assertEquals(ConnectorSettings.LOAD_TEST, ConnectorSettings.forProcessors(64));
        IllegalArgumentException none =
                assertThrows(IllegalArgumentException.class, () -> ConnectorSettings.forProcessors(0));
        assertEquals("processors < 1: 0", none.getMessage());
    }

    @Test
    void launcherPropertiesOverrideTheOneCpuPool() {
        assertEquals(4, ConnectorSettings.forLauncher(name -> null, 1).maxThreads());
        ConnectorSettings large = ConnectorSettings.forLauncher(
                Map.of(
                        ConnectorSettings.MAX_THREADS_PROPERTY,
                        "256",
                        ConnectorSettings.MIN_SPARE_THREADS_PROPERTY,
                        "32")::get,
                1);
        assertEquals(ConnectorSettings.LOAD_TEST, large);
    }

    @Test
    void launcherKeepsTheLoadTestPoolWithoutProperties() {
        ConnectorSettings settings = ConnectorSettings.forLauncher(name -> null, 2);
        assertEquals(ConnectorSettings.LOAD_TEST, settings);
    }

    @Test
    void launcherTakesThePoolFromPropertiesAndLowersTheSpareThreadsToTheMaximum() {
        ConnectorSettings small =
                ConnectorSettings.forLauncher(Map.of(ConnectorSettings.MAX_THREADS_PROPERTY, "8")::get, 2);
        assertEquals(8, small.maxThreads());
        assertEquals(8, small.minSpareThreads());
        assertEquals(ConnectorSettings.LOAD_TEST.maxConnections(), small.maxConnections());
        ConnectorSettings both = ConnectorSettings.forLauncher(
                Map.of(ConnectorSettings.MAX_THREADS_PROPERTY, " 16", ConnectorSettings.MIN_SPARE_THREADS_PROPERTY, "0")
                        ::get,
                2);
        assertEquals(16, both.maxThreads());
        assertEquals(0, both.minSpareThreads());
    }

    @Test
    void launcherRefusesABadPoolPropertyNamingIt() {
        IllegalArgumentException notANumber = assertThrows(
                IllegalArgumentException.class,
                () -> ConnectorSettings.forLauncher(Map.of(ConnectorSettings.MAX_THREADS_PROPERTY, "many")::get, 2));
        assertEquals(
                "liftride.http.maxThreads must be an integer in 1..2147483647, got \"many\"", notANumber.getMessage());
        IllegalArgumentException zero = assertThrows(
                IllegalArgumentException.class,
                () -> ConnectorSettings.forLauncher(Map.of(ConnectorSettings.MAX_THREADS_PROPERTY, "0")::get, 2));
        assertEquals("liftride.http.maxThreads must be an integer in 1..2147483647, got \"0\"", zero.getMessage());
        IllegalArgumentException spareAboveMax = assertThrows(
                IllegalArgumentException.class,
                () -> ConnectorSettings.forLauncher(
                        Map.of(
                                ConnectorSettings.MAX_THREADS_PROPERTY,
                                "4",
                                ConnectorSettings.MIN_SPARE_THREADS_PROPERTY,
                                "5")::get,
                        2));
        assertEquals("minSpareThreads must be <= maxThreads (4), got 5", spareAboveMax.getMessage());
    }
}
