package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The command line, as users run it: {@code java -jar liftride-cluster.jar --server-jar
 * liftride-server.jar}. SIGTERM (what Ctrl-C does too, through the same shutdown hook) stops every
 * process it started; SIGKILL of the launcher leaves none behind either.
 */
@Timeout(180)
class LocalClusterLauncherIT {
    private static final Path SERVER_JAR =
            Path.of(System.getProperty("liftride.server.jar", "../servlet/target/liftride-server.jar"));
    private static final Path CLUSTER_JAR =
            Path.of(System.getProperty("liftride.cluster.jar", "../cluster/target/liftride-cluster.jar"));
    private static final Pattern READY =
            Pattern.compile("^LiftRide cluster listening on (http://127\\.0\\.0\\.1:\\d+/liftride)$");
    private static final Pattern RUN_DIR = Pattern.compile("^LiftRide local cluster, run directory (.+)$");

    @Test
    void sigtermStopsRedisTheServerAndNginxAndDeletesTheRunDirectory() throws Exception {
        Process launcher = launch("--servers", "1", "--port", "0");
        List<String> banner = awaitReady(launcher);
        List<ProcessHandle> children = launcher.descendants().toList();
        assertEquals(3, children.size(), "redis, one server, nginx: " + describe(children));
        Path runDir = Path.of(match(RUN_DIR, banner));
        assertTrue(Files.isDirectory(runDir));
        assertTrue(
                banner.stream().anyMatch(l -> l.matches("\\s+server1\\s+http://127\\.0\\.0\\.1:\\d+/liftride .*")),
                String.join("\n", banner));

        launcher.destroy(); // SIGTERM
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the launcher stopped");
        assertAllGone(children);
        assertFalse(Files.exists(runDir), runDir + " deleted");
    }

    @Test
    void sigkillOfTheLauncherTakesItsChildrenWithIt() throws Exception {
        Process launcher = launch("--servers", "1", "--port", "0");
        Path runDir = Path.of(match(RUN_DIR, awaitReady(launcher)));
        List<ProcessHandle> children = launcher.descendants().toList();
        assertEquals(3, children.size(), describe(children));

        launcher.destroyForcibly(); // SIGKILL: no shutdown hook runs
        launcher.waitFor(10, TimeUnit.SECONDS);
        assertAllGone(children);
        Trees.delete(runDir); // what a crashed launcher leaves: logs and Redis's files
    }

    @Test
    void aBadFlagIsOneLineAndExit2() throws Exception {
        Process launcher = launch("--servers", "0");
        assertTrue(launcher.waitFor(30, TimeUnit.SECONDS));
        String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, launcher.exitValue(), output);
        assertTrue(output.startsWith("--servers must be an integer in 1..32, got 0\nusage: "), output);
    }

    @Test
    void aMissingServerJarIsOneLineAndExit2() throws Exception {
        Process launcher = java(List.of("--port", "0", "--server-jar", "no/such.jar"));
        assertTrue(launcher.waitFor(30, TimeUnit.SECONDS));
        String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, launcher.exitValue(), output);
        assertTrue(output.startsWith("--server-jar must be liftride-server.jar, no file at no/such.jar"), output);
        assertEquals(1, output.strip().lines().count(), output);
    }

    @Test
    void aRedisThatDoesNotAnswerStopsTheStartWithOneLineAndExit1() throws Exception {
        int nobody = FreePorts.next();
        Process launcher = launch("--redis", "127.0.0.1:" + nobody, "--port", "0");
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS));
        String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, launcher.exitValue(), output);
        assertEquals(
                "the local cluster did not start: Redis at 127.0.0.1:" + nobody + " did not answer within 10 s",
                output.strip());
    }

    /** The launcher with the servers' jar and {@code args}. */
    private static Process launch(String... args) throws IOException {
        List<String> withJar = new ArrayList<>(List.of("--server-jar", SERVER_JAR.toString()));
        withJar.addAll(List.of(args));
        return java(withJar);
    }

    private static Process java(List<String> args) throws IOException {
        assertTrue(Files.isRegularFile(CLUSTER_JAR), CLUSTER_JAR + " must be built by the cluster module's package");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-jar",
                CLUSTER_JAR.toString()));
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The launcher's lines up to the one that says the cluster is ready. */
    private static List<String> awaitReady(Process launcher) throws IOException {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        for (String line; (line = out.readLine()) != null; ) {
            lines.add(line);
            if (READY.matcher(line).matches()) {
                return lines;
            }
        }
        throw new AssertionError("the launcher ended without the ready line:\n" + String.join("\n", lines));
    }

    private static String match(Pattern pattern, List<String> lines) {
        for (String line : lines) {
            Matcher m = pattern.matcher(line);
            if (m.matches()) {
                return m.group(1);
            }
        }
        throw new AssertionError("no line matches " + pattern + " in\n" + String.join("\n", lines));
    }

    /** Every process has ended within 15 s; a zombie (ended, not yet reaped by its new parent) counts as ended. */
    private static void assertAllGone(List<ProcessHandle> processes) {
        try {
            Poll.until(
                    "every process to end",
                    Duration.ofSeconds(15),
                    () -> processes.stream().noneMatch(LocalClusterLauncherIT::running));
        } catch (IllegalStateException e) {
            throw new AssertionError("still running 15 s later: "
                    + describe(processes.stream()
                            .filter(LocalClusterLauncherIT::running)
                            .toList()));
        }
    }

    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try { // state is the field after the command's closing parenthesis in /proc/PID/stat
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException gone) {
            return false;
        }
    }

    private static String describe(List<ProcessHandle> processes) {
        return processes.stream()
                .map(p -> p.pid() + " " + p.info().command().orElse("?"))
                .toList()
                .toString();
    }
}
