package io.upic.liftride.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engines tests start (redis-server, nginx, wrk): found on the PATH, or installed from Debian's
 * packages when missing, so a fresh machine passes the test command. A test never skips because an
 * engine is absent: if it cannot be installed, the test fails saying why. Stateless.
 */
public final class Programs {
    private Programs() {}

    /** The result of a finished command: its exit code (-1 if killed at the timeout) and all its output. */
    public record Result(int exitCode, String output) {}

    /** The path of {@code program}, installing Debian package {@code debianPackage} first if needed. */
    public static synchronized String require(String program, String debianPackage) {
        String found = onPath(program);
        if (found != null) {
            return found;
        }
        if (onPath("apt-get") == null) {
            throw new IllegalStateException(program + " is not installed and there is no apt-get: install "
                    + debianPackage + " to run this test");
        }
        Result uid = exec(Duration.ofSeconds(10), "id", "-u");
        if (!uid.output().strip().equals("0")) {
            throw new IllegalStateException(program + " is not installed and this user is not root: run `sudo apt-get"
                    + " install -y " + debianPackage + "`, then the tests");
        }
        Result install = exec(
                Duration.ofMinutes(10),
                "sh",
                "-c",
                "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
                        + debianPackage);
        String path = onPath(program);
        if (install.exitCode() != 0 || path == null) {
            throw new IllegalStateException(program + " is not installed and `apt-get install " + debianPackage
                    + "` failed (exit " + install.exitCode() + "):\n" + install.output());
        }
        return path;
    }

    /** The executable {@code program} on the PATH (or in /usr/sbin, where Debian puts nginx), or null. */
    public static String onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + File.pathSeparator + "/usr/sbin";
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    /** Runs a command to completion within {@code timeout} (killed after it: exit code -1). */
    public static Result exec(Duration timeout, String... command) {
        return exec(timeout, List.of(command));
    }

    /** Runs a command to completion within {@code timeout} (killed after it: exit code -1). */
    public static Result exec(Duration timeout, List<String> command) {
        try {
            Path output = Files.createTempFile("liftride-exec-", ".txt");
            try {
                Process process = new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                boolean ended;
                try {
                    ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } finally {
                    process.destroyForcibly();
                }
                return new Result(ended ? process.exitValue() : -1, Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }

    /** Sends {@code signal} (e.g. "KILL", "STOP", "CONT") to a process. */
    public static void signal(long pid, String signal) {
        Result result = exec(Duration.ofSeconds(10), "kill", "-" + signal, Long.toString(pid));
        if (result.exitCode() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + result.output());
        }
    }
}
