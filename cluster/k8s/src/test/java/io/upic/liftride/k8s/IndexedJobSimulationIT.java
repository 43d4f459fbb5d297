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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * load.yaml's Indexed Job and merge.yaml's Job played on this machine, without a cluster: one client-part2 process
 * per completion index, started with the Job's container arguments ({@code $(JOB_COMPLETION_INDEX)} expanded and
 * the variable set, as Kubernetes does; only the server's address, the plan's size, the instant and the volume's
 * path changed), against a local server; then the merge Job's arguments, --threshold included, whose exit code is
 * the verdict.
 */
class IndexedJobSimulationIT {

    private static final String CONTAINER = "spec.template.spec.containers.0.";
    private static final String INDEX = "$(" + Shard.INDEX_VARIABLE + ")";
    /** Time for every shard's JVM to come up and probe the server before the instant, on a busy machine. */
    private static final Duration LEAD = Duration.ofSeconds(30);

    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void shardsStartedAsThePodsAreTogetherMergeToExactlyTheRidesTheServerStored(@TempDir Path volume) throws Exception {
        Manifests manifests = Manifests.load();
        Map<String, Object> load = manifests.get("Job", "liftride-load");
        int shards = at(load, "spec.completions");
        List<String> podArgs = at(load, CONTAINER + "args");
        int port = FreePorts.next();
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
                            "127.0.0.1"),
                    volume.resolve("server.log"),
                    spawner);
            server.start();
            server.await(Duration.ofSeconds(60), () -> stored(base) >= 0);
            long before = stored(base);
            Instant startAt = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
            List<String> args = withValue(podArgs, "-i", base);
            args = withValue(withValue(args, "-t", "4"), "-s", "200");
            args = withValue(args, "--start-at", startAt.toString());
            args = withValue(args, "--metrics-port", "127.0.0.1:0"); // one machine: a free port per pod
            args = withValue(args, "--out", valueOf(args, "--out").replace("/results", volume.toString()));
            List<Process> pods = new ArrayList<>();
            for (int i = 0; i < shards; i++) {
                List<String> pod = new ArrayList<>(List.of(
                        "env",
                        Shard.INDEX_VARIABLE + "=" + i,
                        JAVA,
                        "-jar",
                        System.getProperty("liftride.client.jar")));
                for (String a : args) {
                    pod.add(a.replace(INDEX, Integer.toString(i)));
                }
                pods.add(spawner.spawn(pod, volume.resolve("pod-" + i + ".log")));
            }
            for (int i = 0; i < shards; i++) {
                assertTrue(pods.get(i).waitFor(3, TimeUnit.MINUTES), "pod " + i + " ended");
                String log = Files.readString(volume.resolve("pod-" + i + ".log"));
                assertEquals(0, pods.get(i).exitValue(), "pod " + i + ":\n" + log);
                assertTrue(log.contains("Waiting "), "pod " + i + " waited for --start-at:\n" + log);
                Instant started = Instant.parse(
                        summary(volume.resolve("shard-" + i)).get("startTime").getAsString());
                assertFalse(started.isBefore(startAt), "pod " + i + " started at " + started);
            }
            long delta = stored(base) - before;
            Programs.Result merge = Programs.exec(Duration.ofMinutes(2), mergeCommand(manifests, volume));
            assertEquals(0, merge.exitCode(), merge.output());
            long merged = summary(volume.resolve("merged")).get("successful").getAsLong();
            assertTrue(delta > 0, "the shards stored rides");
            assertEquals(delta, merged, "merged successes = the rides the server stored\n" + merge.output());
        }
    }

    /** The merge Job's container, with the volume's path. */
    private static List<String> mergeCommand(Manifests manifests, Path volume) {
        List<String> args = at(manifests.get("Job", "liftride-merge"), CONTAINER + "args");
        List<String> command = new ArrayList<>(List.of(JAVA, "-jar", System.getProperty("liftride.client.jar")));
        for (String a : args) {
            command.add(a.replace("/results", volume.toString()));
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
