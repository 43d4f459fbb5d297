package io.upic.liftride.client.part2;

import io.upic.liftride.cluster.Programs;
import io.upic.liftride.testkit.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * client-part2's {@link Main} in a JVM of its own, started from the test class path (no jar to find),
 * for what only a separate process shows: a real signal (SIGINT and SIGQUIT at their defaults however this JVM was
 * started: {@link Programs#withDefaultInterrupts}), a real resource limit. Its stdout and stderr go to files in the
 * test's folder. One that outlives {@link #waitFor}'s deadline has its thread dump printed. Not thread-safe.
 */
final class ChildClient implements AutoCloseable {

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private String threadDump;

    private ChildClient(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code wrapper... java -cp <test class path> Main args...}.
     *
     * @param work    where stdout.txt and stderr.txt go
     * @param wrapper a command that execs the rest (e.g. a shell that sets a limit first), or empty
     */
    static ChildClient start(Path work, List<String> wrapper, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Failsafe may start the tests from a manifest-only jar; this property holds the real class path.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(java, "-Xmx256m", "-cp", classPath, Main.class.getName()));
        command.addAll(List.of(args));
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Process p = new ProcessBuilder(Shell.withDefaultInterrupts(command))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new ChildClient(p, out, err);
    }

    Process process() {
        return process;
    }

    /**
     * Whether it exited within the timeout; if not, its thread dump is printed to this JVM's stderr (which the build
     * log shows) and kept for {@link #printed()}.
     */
    boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        if (process.waitFor(timeout, unit)) {
            return true;
        }
        threadDump = Shell.threadDump(process.pid());
        System.err.println(
                "child " + process.pid() + " still running after " + timeout + " " + unit + ":\n" + threadDump);
        return false;
    }

    /** Its stdout so far, then its stderr (and its thread dump after a timeout), for assertions and messages. */
    String printed() throws IOException {
        return read(stdout) + "\n--- stderr ---\n" + read(stderr)
                + (threadDump == null ? "" : "\n--- thread dump ---\n" + threadDump);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    /** Kills it (SIGKILL) if still running. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
