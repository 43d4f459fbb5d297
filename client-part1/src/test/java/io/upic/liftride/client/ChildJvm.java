package io.upic.liftride.client;

import io.upic.liftride.cluster.Programs;
import io.upic.liftride.testkit.Shell;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A JVM started from the test's own class path (no jar to find): the lift-ride server to kill, or the
 * client to send a real SIGINT to, which it gets with SIGINT and SIGQUIT at their defaults however this JVM was
 * started ({@link Programs#withDefaultInterrupts}). Its stdout is collected line by line; stderr goes to a file.
 * One that outlives {@link #waitFor}'s deadline has its thread dump printed before the test fails.
 * Not thread-safe except {@link #stdout()} and {@link #awaitLine}.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Path stderr;
    private final Thread reader;

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::readStdout, "child-jvm-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code java -cp <test class path> mainClass args...}. */
    static ChildJvm start(String mainClass, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Surefire/Failsafe may run tests from a manifest-only jar; this property always holds the real path.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true",
                "-cp",
                classPath,
                mainClass));
        command.addAll(List.of(args));
        Path err = Files.createTempFile("child-jvm-", ".stderr");
        Process p = new ProcessBuilder(Shell.withDefaultInterrupts(command))
                .redirectError(err.toFile())
                .start();
        return new ChildJvm(p, err);
    }

    private void readStdout() {
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException ignored) {
            // the process went away
        }
    }

    /** Waits for a stdout line matching {@code p}; fails with what the child printed if none comes in time. */
    String awaitLine(Predicate<String> p, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (lines) {
            for (int seen = 0; ; ) {
                for (; seen < lines.size(); seen++) {
                    if (p.test(lines.get(seen))) {
                        return lines.get(seen);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
                    throw new AssertionError("no such line from the child in time; stdout:\n" + String.join("\n", lines)
                            + "\nstderr:\n" + stderr());
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }

    /** Everything printed to stdout so far (all of it once {@link #waitFor} returned). */
    String stdout() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    String stderr() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /**
     * Waits for the exit and for stdout to be read to its end; the exit code. On timeout, prints the child's
     * thread dump (to this JVM's stderr, which the build log shows) and throws with it and what the child printed.
     */
    int waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        if (!process.waitFor(timeout, unit)) {
            String dump = Shell.threadDump(pid());
            System.err.println("child " + pid() + " still running after " + timeout + " " + unit + ":\n" + dump);
            throw new AssertionError("child " + pid() + " still running after " + timeout + " " + unit + "; stdout:\n"
                    + stdout() + "\nstderr:\n" + stderr() + "\nthread dump:\n" + dump);
        }
        reader.join(unit.toMillis(timeout));
        return process.exitValue();
    }

    /** Kills it (SIGKILL) if still running and removes the stderr file. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        reader.join(5_000);
        try {
            Files.deleteIfExists(stderr);
        } catch (IOException ignored) {
            // a temp file
        }
    }
}
