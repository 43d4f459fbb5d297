package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.catalina.Wrapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A launcher JVM with a small heap that runs out of memory in a request thread exits (so that it is
 * restarted) instead of living on deaf: with the documented {@code -XX:+ExitOnOutOfMemoryError}, and
 * without it through the launcher's own check ({@link OutOfMemoryHalt}). The child runs the real launcher ({@link
 * EmbeddedServer#runFromCommandLine}) plus one servlet that allocates without bound.
 */
@Timeout(90)
class OutOfMemoryExitIT {

    /** The child: the launcher with a {@code /hog} servlet that fills the heap. */
    public static final class HoggingServer {
        public static void main(String[] args) throws InterruptedException {
            EmbeddedServer.runFromCommandLine(args, context -> {
                Wrapper hog = context.createWrapper();
                hog.setName("hog");
                hog.setServlet(new HttpServlet() {
                    @Override
                    protected void service(HttpServletRequest request, HttpServletResponse response) {
                        List<long[]> heap = new ArrayList<>();
                        while (true) {
                            heap.add(new long[1 << 18]);
                        }
                    }
                });
                context.addChild(hog);
                context.addServletMappingDecoded("/hog", "hog");
            });
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:-ExitOnOutOfMemoryError", "-XX:+ExitOnOutOfMemoryError"})
    void aServerThatRunsOutOfMemoryExitsWithCode3(String jvmFlag) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-Xmx48m",
                        jvmFlag,
                        "-cp",
                        System.getProperty("java.class.path"),
                        HoggingServer.class.getName(),
                        "--port",
                        "0",
                        "--host",
                        "127.0.0.1",
                        "--management-port",
                        "0")
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            Matcher url = Pattern.compile("LiftRide server listening on (http://\\S+)")
                    .matcher("");
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
                if (url.reset(line).find()) {
                    break;
                }
            }
            assertTrue(
                    url.reset(lines.isEmpty() ? "" : lines.get(lines.size() - 1))
                            .find(),
                    "started: " + lines);
            hog(url.group(1) + "/hog");
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the server must exit after OutOfMemoryError");
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
            assertEquals(OutOfMemoryHalt.EXIT_CODE, child.exitValue(), String.join("\n", lines));
            assertTrue(String.join("\n", lines).contains("OutOfMemoryError"), String.join("\n", lines));
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** One GET that makes the child allocate; its answer, if any, does not matter. */
    private static void hog(String url) throws IOException {
        HttpURLConnection connection =
                (HttpURLConnection) URI.create(url).toURL().openConnection();
        connection.setConnectTimeout(5_000);
        connection.setReadTimeout(30_000);
        try {
            connection.getResponseCode();
        } catch (IOException serverGone) {
            // the expected outcome: the JVM halted mid-request
        } finally {
            connection.disconnect();
        }
    }
}
