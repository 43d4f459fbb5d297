package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher's life cycle: free ports, base URLs, several servers per JVM, customizers, idempotent close. */
@Timeout(60)
class EmbeddedServerIT {
    private static int status(String url) throws IOException, InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void picksAFreePortAndNamesItInTheBaseUrl() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            assertTrue(server.port() > 0);
            assertEquals("http://127.0.0.1:" + server.port() + "/liftride", server.baseUrl());
            assertEquals(200, status(server.baseUrl() + "/resorts"));
        }
    }

    @Test
    void writesAWildcardBindAddressAsLoopbackInTheBaseUrl() throws Exception {
        try (EmbeddedServer server = EmbeddedServer.start("0.0.0.0", 0)) {
            assertEquals("http://127.0.0.1:" + server.port() + "/liftride", server.baseUrl());
            assertEquals(200, status(server.baseUrl() + "/statistics"));
        }
    }

    @Test
    void runsSeveralServersWithSeparateStoresInOneJvm() throws Exception {
        try (EmbeddedServer a = EmbeddedServer.start("127.0.0.1", 0);
                EmbeddedServer b = EmbeddedServer.start("127.0.0.1", 0)) {
            assertNotEquals(a.port(), b.port());
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest post = HttpRequest.newBuilder(
                            URI.create(a.baseUrl() + "/skiers/1/seasons/2022/days/1/skiers/1"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"liftID\":1,\"time\":1}"))
                    .build();
            assertEquals(
                    201,
                    client.send(post, HttpResponse.BodyHandlers.discarding()).statusCode());
            assertEquals(200, status(a.baseUrl() + "/skiers/1/seasons/2022/days/1/skiers/1"));
            assertEquals(404, status(b.baseUrl() + "/skiers/1/seasons/2022/days/1/skiers/1"));
        }
    }

    @Test
    void closesIdempotentlyAndFreesThePort() throws Exception {
        EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0);
        int port = server.port();
        server.close();
        server.close();
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
        try (EmbeddedServer again = EmbeddedServer.start("127.0.0.1", port)) {
            assertEquals(port, again.port());
        }
    }

    @Test
    void failsWithAClearMessageWhenThePortIsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
            IllegalStateException error = assertThrows(
                    IllegalStateException.class,
                    () -> EmbeddedServer.start("127.0.0.1", taken.getLocalPort())
                            .close());
            assertTrue(error.getMessage().contains(String.valueOf(taken.getLocalPort())), error.getMessage());
        }
    }

    @Test
    void letsACustomizerAddAServletBesideWebXmlsAndFailsTheStartIfItThrows() throws Exception {
        HttpServlet teapot = new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) {
                response.setStatus(418);
            }
        };
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0, context -> {
            assertEquals("skiers", context.findServletMapping("/skiers/*"), "web.xml is applied first");
            Tomcat.addServlet(context, "teapot", teapot);
            context.addServletMappingDecoded("/teapot", "teapot");
        })) {
            assertEquals(418, status(server.baseUrl() + "/teapot"));
            assertEquals(200, status(server.baseUrl() + "/resorts"));
        }
        assertThrows(
                IllegalStateException.class,
                () -> EmbeddedServer.start("127.0.0.1", 0, context -> {
                            throw new IllegalArgumentException("refused");
                        })
                        .close());
    }

    @Test
    void refusesInvalidArgumentsNamingThem() {
        assertEquals(
                "port must be in 0..65535, got 70000",
                assertThrows(IllegalArgumentException.class, () -> EmbeddedServer.start("127.0.0.1", 70000))
                        .getMessage());
        assertEquals(
                "host must be an address to bind, got \"\"",
                assertThrows(IllegalArgumentException.class, () -> EmbeddedServer.start("", 0))
                        .getMessage());
    }
}
