package io.upic.liftride.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.cluster.Programs;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The images this build made with Jib (pre-integration-test), loaded into Debian's podman and started for real with
 * the runc runtime (crun refuses hybrid cgroups), as root, on the host's network: the user, the entrypoint, the heap
 * sized from the container's memory, a server that serves read-only with a writable /tmp (as server.yaml runs it)
 * and drains on SIGTERM, and a client that loads it and reconciles with it. Where podman cannot start any container
 * on the machine, each test prints one line saying so and checks the images' files instead.
 */
class ImagesIT {

    private static final List<String> RUN = List.of(
            "--runtime",
            "runc",
            "run",
            "--ulimit",
            "nofile=1024:1024",
            "--ulimit",
            "nproc=1024:1024",
            "--network",
            "host");
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private static String podman;
    private static String server;
    private static String client;
    /** Why podman cannot start a container here; null when it can. */
    private static String refusal;

    @BeforeAll
    static void loadTheImages() throws Exception {
        podman = Programs.require("podman", "podman");
        Programs.require("runc", "runc");
        server = load("liftride-server-image");
        client = load("liftride-client-image");
        Programs.Result hello = podman(withRun("--rm", "--entrypoint", "true", server));
        refusal = hello.exitCode() == 0
                ? null
                : hello.output().strip().lines().findFirst().orElse("exit " + hello);
    }

    /** Loads the tar Jib wrote into podman; returns the image's id. */
    private static String load(String name) throws Exception {
        Path dir = Path.of(System.getProperty("liftride.images.dir"));
        Programs.Result loaded =
                podman(List.of("load", "-q", "-i", dir.resolve(name + ".tar").toString()));
        assertEquals(0, loaded.exitCode(), loaded.output());
        return Files.readString(dir.resolve(name + ".id")).strip().replace("sha256:", "");
    }

    private static Programs.Result podman(List<String> args) {
        List<String> command = new ArrayList<>(List.of(podman));
        command.addAll(args);
        return Programs.exec(LIMIT, command);
    }

    private static List<String> withRun(String... args) {
        List<String> all = new ArrayList<>(RUN);
        all.addAll(List.of(args));
        return all;
    }

    private static JsonObject config(String image) {
        Programs.Result r = podman(List.of("image", "inspect", "--format", "{{json .Config}}", image));
        assertEquals(0, r.exitCode(), r.output());
        return JsonParser.parseString(r.output()).getAsJsonObject();
    }

    /** Prints why nothing runs here, and checks that {@code image} holds {@code files}; true when that was all. */
    private static boolean onlyFilesChecked(String image, String... files) {
        if (refusal == null) {
            return false;
        }
        System.out.println("ImagesIT: podman cannot start a container on this machine (" + refusal
                + "): checked the images' configuration and files only");
        String container = podman(List.of("create", image)).output().strip().replaceAll("(?s).*\n", "");
        Programs.Result listing = Programs.exec(LIMIT, "sh", "-c", podman + " export " + container + " | tar -t");
        podman(List.of("rm", "-f", container));
        for (String f : files) {
            assertTrue(listing.output().lines().anyMatch(f::equals), f + " in " + image);
        }
        return true;
    }

    @Test
    void bothRunTheirJarAsUserLiftrideWithTheHeapAtThreeQuartersOfTheContainersMemory() {
        for (String[] image : new String[][] {{server, "liftride-server.jar"}, {client, "client-part2.jar"}}) {
            JsonObject config = config(image[0]);
            assertEquals("10001:10001", config.get("User").getAsString());
            JsonArray entrypoint = config.getAsJsonArray("Entrypoint");
            assertEquals(
                    "[\"java\",\"-XX:MaxRAMPercentage=75\",\"-jar\",\"/app/" + image[1] + "\"]", entrypoint.toString());
            if (onlyFilesChecked(image[0], "app/" + image[1], "home/liftride/", "usr/bin/java")) {
                continue;
            }
            Programs.Result r = podman(withRun(
                    "--rm",
                    "--memory",
                    "512m",
                    "--entrypoint",
                    "sh",
                    image[0],
                    "-c",
                    "id -un; java " + entrypoint.get(1).getAsString() + " -XX:+PrintFlagsFinal -version"
                            + " | grep -w MaxHeapSize; test -r /app/" + image[1] + " && echo readable"));
            assertEquals(0, r.exitCode(), r.output());
            assertTrue(r.output().startsWith("liftride\n"), r.output());
            assertTrue(r.output().matches("(?s).*MaxHeapSize += 402653184 .*"), "384 MiB of 512:\n" + r.output());
            assertTrue(r.output().contains("readable"), r.output());
        }
    }

    @Test
    void theServerServesReadOnlyTheClientImageLoadsItAndASigtermDrainsIt(@TempDir Path results) throws Exception {
        if (onlyFilesChecked(server, "app/liftride-server.jar") || onlyFilesChecked(client, "app/client-part2.jar")) {
            return;
        }
        int port = FreePorts.next();
        String name = "liftride-images-it-" + port;
        Files.setPosixFilePermissions(results, PosixFilePermissions.fromString("rwxrwxrwx"));
        try {
            Programs.Result started = podman(withRun(
                    "-d",
                    "--name",
                    name,
                    "--read-only",
                    "--tmpfs",
                    "/tmp",
                    "--memory",
                    "768m",
                    server,
                    "--port",
                    Integer.toString(port),
                    "--host",
                    "127.0.0.1",
                    "--management-port",
                    "0"));
            assertEquals(0, started.exitCode(), started.output());
            HttpClient http = HttpClient.newHttpClient();
            URI ready = URI.create("http://127.0.0.1:" + port + "/liftride/health/ready");
            Poll.until("the server's container", Duration.ofSeconds(90), () -> {
                try {
                    return http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200;
                } catch (ConnectException e) {
                    return false;
                }
            });
            Programs.Result load = podman(withRun(
                    "--rm",
                    "--memory",
                    "512m",
                    "-v",
                    results + ":/results",
                    client,
                    "-t",
                    "4",
                    "-s",
                    "100",
                    "-i",
                    "127.0.0.1:" + port,
                    "--baseline",
                    "0",
                    "--out",
                    "/results/run"));
            assertEquals(0, load.exitCode(), "the client reconciles with the server\n" + load.output());
            assertTrue(Files.isRegularFile(results.resolve("run/report.md")), load.output());
            assertEquals(0, podman(List.of("stop", "-t", "60", name)).exitCode());
            String log = podman(List.of("logs", name)).output();
            assertTrue(log.contains("LiftRide drain: not ready"), log);
            assertTrue(log.contains("LiftRide server stopped"), log);
        } finally {
            podman(List.of("rm", "-f", name));
        }
    }
}
