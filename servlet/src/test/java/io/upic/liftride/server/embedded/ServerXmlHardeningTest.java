package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.operations.ManagementPort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Hashtable;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.tomcat.util.IntrospectionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The server.xml users copy to a public Tomcat (servlet/tomcat/server.xml) has no shutdown port,
 * deploys only at start-up and keeps its management port on loopback 8081, as the embedded launcher
 * does; StandaloneTomcatIT proves that the WAR deploys that way on a real Tomcat. The shipped setenv.sh
 * gives a one-CPU host the launcher's request threads.
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
    void theManagementConnectorListensOnLoopback8081OnThePoolTheApplicationKnowsItBy() {
        NodeList connectors = serverXml.getElementsByTagName("Connector");
        assertEquals(2, connectors.getLength(), "the management port and the API's");
        Element management = (Element) connectors.item(0);
        Element api = (Element) connectors.item(1);
        assertEquals(ManagementPort.EXECUTOR, management.getAttribute("executor"));
        assertEquals(ManagementPort.EXECUTOR, only("Executor").getAttribute("name"));
        assertEquals(String.valueOf(EmbeddedServer.DEFAULT_MANAGEMENT_PORT), asTomcatReadsIt(management, "port"));
        assertEquals(EmbeddedServer.DEFAULT_MANAGEMENT_HOST, asTomcatReadsIt(management, "address"));
        assertEquals("", api.getAttribute("executor"), "the API's connector has its own pool");
        assertEquals("8080", asTomcatReadsIt(api, "port"));
    }

    @Test
    void theShippedSetenvGivesAOneCpuHostTheLaunchersRequestThreads() throws Exception {
        int threads = ConnectorSettings.ONE_CPU_THREADS;
        assertEquals(
                " -XX:+ExitOnOutOfMemoryError -Dliftride.http.maxThreads=" + threads
                        + " -Dliftride.http.minSpareThreads=" + threads,
                catalinaOptsOnCpus(1));
        assertEquals(" -XX:+ExitOnOutOfMemoryError", catalinaOptsOnCpus(2));
    }

    /** CATALINA_OPTS after sourcing setenv.sh where {@code nproc} prints {@code cpus}. */
    private static String catalinaOptsOnCpus(int cpus) throws Exception {
        Path bin = Files.createTempDirectory("fake-nproc-");
        try {
            Path nproc = bin.resolve("nproc");
            Files.writeString(nproc, "#!/bin/sh\necho " + cpus + "\n");
            Files.setPosixFilePermissions(nproc, PosixFilePermissions.fromString("rwx------"));
            ProcessBuilder sh = new ProcessBuilder("sh", "-c", ". tomcat/setenv.sh; printf %s \"$CATALINA_OPTS\"");
            sh.environment().remove("CATALINA_OPTS");
            sh.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            Process process = sh.redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            assertTrue(process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0, output);
            return output;
        } finally {
            Files.deleteIfExists(bin.resolve("nproc"));
            Files.delete(bin);
        }
    }

    @Test
    void theHostTakesTheClientAddressFromTrustedProxiesLikeTheEmbeddedLauncher() {
        assertEquals("org.apache.catalina.valves.RemoteIpValve", only("Valve").getAttribute("className"));
        assertEquals("Host", only("Valve").getParentNode().getNodeName());
    }
}
