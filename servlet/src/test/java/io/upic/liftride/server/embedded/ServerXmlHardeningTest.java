package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Hashtable;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.tomcat.util.IntrospectionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The server.xml users copy to a public Tomcat (servlet/tomcat/server.xml) has no shutdown port and
 * deploys only at start-up, as the embedded launcher does; StandaloneTomcatIT proves that the WAR
 * deploys that way on a real Tomcat.
 */
class ServerXmlHardeningTest {

    private static Document serverXml;

    @BeforeAll
    static void parse() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        serverXml = factory.newDocumentBuilder()
                .parse(Path.of("tomcat", "server.xml").toFile());
    }

    /** An attribute as Tomcat reads it with no system properties set (its ${name:-default} syntax). */
    private static String asTomcatReadsIt(Element element, String attribute) {
        return IntrospectionUtils.replaceProperties(element.getAttribute(attribute), new Hashtable<>(), null, null);
    }

    private static Element only(String tag) {
        assertEquals(1, serverXml.getElementsByTagName(tag).getLength(), "one <" + tag + ">");
        return (Element) serverXml.getElementsByTagName(tag).item(0);
    }

    @Test
    void theShutdownPortIsDisabledByDefault() {
        assertEquals("-1", asTomcatReadsIt(only("Server"), "port"));
    }

    @Test
    void theHostDeploysTheWarAtStartUpOnlyLikeTheEmbeddedLauncher() {
        Element host = only("Host");
        assertEquals("false", host.getAttribute("autoDeploy"), "EmbeddedServer sets autoDeploy false too");
        assertEquals("true", host.getAttribute("deployOnStartup"));
    }

    @Test
    void theShippedSetenvMakesTomcatExitOnOutOfMemory() throws Exception {
        String setenv = java.nio.file.Files.readString(Path.of("tomcat", "setenv.sh"));
        assertTrue(
                setenv.lines()
                        .anyMatch(line ->
                                line.startsWith("CATALINA_OPTS=") && line.contains("-XX:+ExitOnOutOfMemoryError")),
                setenv);
    }

    @Test
    void theHostTakesTheClientAddressFromTrustedProxiesLikeTheEmbeddedLauncher() {
        assertEquals("org.apache.catalina.valves.RemoteIpValve", only("Valve").getAttribute("className"));
        assertEquals("Host", only("Valve").getParentNode().getNodeName());
    }
}
