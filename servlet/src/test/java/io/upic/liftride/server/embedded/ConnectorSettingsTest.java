package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void refusesNonsensicalValuesNamingThem() {
        IllegalArgumentException error = assertThrows(
                IllegalArgumentException.class, () -> ConnectorSettings.LOAD_TEST.withConnectionTimeoutMillis(0));
        assertEquals("connectionTimeoutMillis must be >= 1, got 0", error.getMessage());
    }
}
