package io.upic.liftride.k8s;

import static io.upic.liftride.k8s.Manifests.at;
import static io.upic.liftride.k8s.Manifests.valueOf;
import static io.upic.liftride.k8s.Manifests.withValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.cluster.ChildProcess;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Programs;
import io.upic.liftride.cluster.Spawner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * load.sh's Indexed Job and merge Job played on this machine, without a cluster: per completion index, one
 * client-part2 process with the Job's container arguments ({@code $(JOB_COMPLETION_INDEX)} expanded and the variable
 * set, as Kubernetes does; only the server's address, the plan's size and the folders changed) and its upload
 * sidecar's script, sent SIGTERM when the client ends; the merge pod's inbox (redis-server with the manifest's
 * flags), its collect script, then its merge command, --threshold included, whose exit code is the verdict. Each pod
 * and the merge pod have folders of their own, so the merge reads only what went through the inbox.
 */
class IndexedJobSimulationIT {

    private static final String POD = "spec.template.spec.";
    private static final String INDEX = "$(" + Shard.INDEX_VARIABLE + ")";
    /** Two shards prove the dealing, the inbox and the merge as four do, at half the JVMs. */
    private static final int SHARDS = 2;
    /** Time for every shard's JVM to come up and probe the server before the instant, on a busy machine. */
    private static final Duration LEAD = Duration.ofSeconds(15);

    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void shardsStartedAsThePodsAreTogetherSendTheirFoldersAndMergeToExactlyTheRidesTheServerStored(@TempDir Path volume)
            throws Exception {
        Programs.require("redis-cli", "redis-tools");
        String redisServer = Programs.require("redis-server", "redis-server");
        int port = FreePorts.next();
        int inboxPort = FreePorts.next();
        String base = "http://127.0.0.1:" + port + "/liftride";
        try (Spawner spawner = new Spawner()) {
            ChildProcess server = new ChildProcess(
                    "server",
                    List.of(
                            JAVA,
                            "-jar",
                            System.getProperty("liftride.server.jar"),
                            "--port",
                            "" + port,
                            "--host",
                            "127.0.0.1",
                            "--management-port",
                            "0"),
                    volume.resolve("server.log"),
                    spawner);
            server.start();
            ChildProcess inbox = new ChildProcess(
                    "inbox",
                    inboxCommand(Manifests.load().get("Job", "liftride-merge"), redisServer, inboxPort),
                    volume.resolve("inbox.log"),
                    spawner);
            inbox.start();
            server.await(Duration.ofSeconds(60), () -> stored(base) >= 0);
            long before = stored(base);
            Instant startAt = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
            Manifests manifests = Manifests.rendered(SHARDS, startAt.toString());
            Map<String, Object> merge = manifests.get("Job", "liftride-merge");
            Map<String, Object> load = manifests.get("Job", "liftride-load");
            assertEquals(SHARDS, (int) at(load, "spec.completions"));
            List<String> args = withValue(at(load, POD + "containers.0.args"), "-i", base);
            args = withValue(withValue(args, "-t", "4"), "-s", "200");
            args = withValue(args, "--metrics-port", "127.0.0.1:0"); // one machine: a free port per pod
            String upload = ((String) at(load, POD + "initContainers.0.args.0"))
                    .replace("redis-cli -h liftride-results", "redis-cli -h 127.0.0.1 -p " + inboxPort);
            List<Process> clients = new ArrayList<>();
            List<Process> sidecars = new ArrayList<>();
            for (int i = 0; i < SHARDS; i++) {
                Path pod = Files.createDirectories(volume.resolve("pod-" + i));
                List<String> env = List.of("env", Shard.INDEX_VARIABLE + "=" + i);
                List<String> sidecar = new ArrayList<>(env);
                sidecar.addAll(List.of("sh", "-c", upload.replace("/results", pod.toString())));
                sidecars.add(spawner.spawn(sidecar, volume.resolve("upload-" + i + ".log")));
                List<String> client = new ArrayList<>(
                        Stream.concat(env.stream(), Stream.of(JAVA, "-jar")).toList());
                client.add(System.getProperty("liftride.client.jar"));
                for (String a : args) {
                    client.add(a.replace(INDEX, Integer.toString(i)).replace("/results", pod.toString()));
                }
                clients.add(spawner.spawn(client, volume.resolve("client-" + i + ".log")));
            }
            for (int i = 0; i < SHARDS; i++) {
                assertTrue(clients.get(i).waitFor(3, TimeUnit.MINUTES), "client " + i + " ended");
                String log = Files.readString(volume.resolve("client-" + i + ".log"));
                System.out.println("IndexedJobSimulationIT: client " + i + " "
                        + log.lines()
                                .filter(l -> l.startsWith("Waiting "))
                                .findFirst()
                                .orElse("did not wait"));
                assertEquals(0, clients.get(i).exitValue(), "client " + i + ":\n" + log);
                assertTrue(log.contains("Waiting "), "client " + i + " waited for --start-at:\n" + log);
                Instant started = Instant.parse(summary(volume.resolve("pod-" + i + "/shard-" + i))
                        .get("startTime")
                        .getAsString());
                assertFalse(started.isBefore(startAt), "client " + i + " started at " + started);
                endSidecar(sidecars.get(i), volume.resolve("upload-" + i + ".log"));
            }
            long delta = stored(base) - before;
            Path mergePod = volume.resolve("merge");
            Programs.Result collect = Programs.exec(
                    Duration.ofMinutes(1),
                    "sh",
                    "-c",
                    ((String) at(merge, POD + "initContainers.1.args.0"))
                            .replace("redis-cli ", "redis-cli -p " + inboxPort + " ")
                            .replace("/results", mergePod.toString()));
            assertEquals(0, collect.exitCode(), collect.output());
            for (int i = 0; i < SHARDS; i++) {
                assertSameFiles(volume.resolve("pod-" + i + "/shard-" + i), mergePod.resolve("shard-" + i));
            }
            Programs.Result merged = Programs.exec(Duration.ofMinutes(2), mergeCommand(merge, mergePod));
            assertEquals(0, merged.exitCode(), merged.output());
            assertTrue(merged.output().contains("1 of 1 passed"), merged.output());
            long successful =
                    summary(mergePod.resolve("merged")).get("successful").getAsLong();
            assertTrue(delta > 0, "the shards stored rides");
            assertEquals(delta, successful, "merged successes = the rides the server stored\n" + merged.output());
        }
    }

    /** The inbox container's redis-server command, on this machine's loopback and {@code port}. */
    private static List<String> inboxCommand(Map<String, Object> merge, String redisServer, int port) {
        List<String> command = new ArrayList<>(at(merge, POD + "initContainers.0.command"));
        assertEquals("redis-server", command.get(0));
        command.set(0, redisServer);
        command.addAll(List.of("--port", "" + port, "--bind", "127.0.0.1"));
        return command;
    }

    /** SIGTERM to an upload sidecar, as the kubelet sends once the client has ended; it must send and exit 0. */
    private static void endSidecar(Process sidecar, Path log) throws Exception {
        List<ProcessHandle> sleeping = sidecar.descendants().toList();
        sidecar.destroy();
        try {
            assertTrue(sidecar.waitFor(30, TimeUnit.SECONDS), "the upload ended:\n" + Files.readString(log));
            assertEquals(0, sidecar.exitValue(), Files.readString(log));
        } finally {
            sleeping.forEach(ProcessHandle::destroy);
        }
    }

    /** Every file of a pod's folder arrived byte for byte in the merge pod's. */
    private static void assertSameFiles(Path sent, Path received) throws Exception {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sent)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertTrue(files.size() > 3, "the shard wrote its folder: " + files);
        for (Path f : files) {
            Path copy = received.resolve(sent.relativize(f).toString());
            assertEquals(-1L, Files.mismatch(f, copy), copy + " equals " + f);
        }
    }

    /**
     * The merge Job's container, with the merge pod's folder and its --threshold's latency bound at 60 s: this
     * machine's latency under other builds is not the cluster's.
     */
    private static List<String> mergeCommand(Map<String, Object> merge, Path mergePod) {
        List<String> args = at(merge, POD + "containers.0.args");
        args = withValue(args, "--threshold", valueOf(args, "--threshold").replaceFirst("<.*", "<60s"));
        List<String> command = new ArrayList<>(List.of(JAVA, "-jar", System.getProperty("liftride.client.jar")));
        for (String a : args) {
            command.add(a.replace("/results", mergePod.toString()));
        }
        return command;
    }

    /** The server's stored-ride count; -1 while it does not answer. */
    private static long stored(String base) {
        return ServerProbe.statistics(base, 1_000, 5_000).ridesStored().orElse(-1);
    }

    /** The summary.json of the one run in an output folder. */
    private static JsonObject summary(Path out) throws Exception {
        try (var runs = Files.list(out)) {
            Path file = runs.map(r -> r.resolve("summary.json"))
                    .filter(Files::isRegularFile)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no run folder with summary.json in " + out));
            return JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        }
    }
}
