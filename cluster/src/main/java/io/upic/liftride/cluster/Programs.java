package io.upic.liftride.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The programs the cluster runs (redis-server, nginx, setpriv, toxiproxy): found on the PATH, or installed when
 * missing (Debian packages with apt-get as root, Go tools with go install); if one cannot be, the caller fails
 * saying why. Stateless; installing is serialized.
 */
public final class Programs {
    private static final Duration INSTALL_LIMIT = Duration.ofMinutes(10);

    private Programs() {}

    /** The result of a finished command: its exit code (-1 if killed at the timeout) and all its output. */
    public record Result(int exitCode, String output) {
        /** The last {@code lines} lines of the output, for failure messages. */
        public String tail(int lines) {
            return lastLines(output, lines);
        }
    }

    /** The path of {@code program}, installing Debian package {@code debianPackage} first if needed. */
    public static synchronized String require(String program, String debianPackage) {
        String found = onPath(program);
        if (found != null) {
            return found;
        }
        if (onPath("apt-get") == null) {
            throw new IllegalStateException(
                    program + " is not installed and there is no apt-get: install " + debianPackage);
        }
        if (!exec(Duration.ofSeconds(10), "id", "-u").output().strip().equals("0")) {
            throw new IllegalStateException(program + " is not installed and this user is not root: run `sudo apt-get"
                    + " install -y " + debianPackage + "`");
        }
        System.err.println(program + " is not installed: apt-get install " + debianPackage);
        Result install = exec(
                INSTALL_LIMIT,
                onceAtATime("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq"
                        + " --no-install-recommends " + debianPackage));
        String path = onPath(program);
        if (install.exitCode() != 0 || path == null) {
            throw new IllegalStateException(program + " is not installed and `apt-get install " + debianPackage
                    + "` failed (exit " + install.exitCode() + "):\n" + install.tail(30));
        }
        return path;
    }

    /**
     * The program {@code goPackage} builds at {@code version}, installed once with {@code go install} under
     * {@code ~/.cache/liftride/NAME} and reused; Go from the PATH, {@code /usr/local/go/bin/go} or apt-get.
     */
    public static synchronized Path requireGo(String name, String goPackage, String version) {
        Path bin = Path.of(System.getProperty("user.home"), ".cache", "liftride", name + "-" + version, "bin");
        Path tool = bin.resolve(goPackage.substring(goPackage.lastIndexOf('/') + 1));
        if (Files.isExecutable(tool)) {
            return tool;
        }
        String go = onPath("go");
        if (go == null) {
            go = Files.isExecutable(Path.of("/usr/local/go/bin/go"))
                    ? "/usr/local/go/bin/go"
                    : require("go", "golang-go");
        }
        System.err.println("installing " + name + " " + version + " into " + bin + " (go install, once)");
        Result install =
                exec(INSTALL_LIMIT, onceAtATime("GOBIN=" + bin + " " + go + " install " + goPackage + "@" + version));
        if (install.exitCode() != 0 || !Files.isExecutable(tool)) {
            throw new IllegalStateException("`" + go + " install " + goPackage + "@" + version + "` failed (exit "
                    + install.exitCode() + "), so " + name + " is not installed:\n" + install.tail(30));
        }
        return tool;
    }

    /** {@code shellCommand}, run once no other JVM on this machine is installing through this class (flock). */
    private static List<String> onceAtATime(String shellCommand) {
        return List.of("flock", "/tmp/liftride-install.lock", "sh", "-c", shellCommand);
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

    /** Runs a command to completion within {@code timeout} (killed after it, with its children: exit code -1). */
    public static Result exec(Duration timeout, List<String> command) {
        return execIn(Path.of(""), timeout, command);
    }

    /** {@link #exec(Duration, List)} in working directory {@code dir}, for programs that leave files there. */
    public static Result execIn(Path dir, Duration timeout, List<String> command) {
        try {
            Path output = Files.createTempFile("liftride-exec-", ".txt");
            try {
                Process process = new ProcessBuilder(command)
                        .directory(dir.toAbsolutePath().toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
                boolean ended;
                try {
                    ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } finally {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
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

    /** The last {@code lines} lines of {@code text}. */
    public static String lastLines(String text, int lines) {
        String[] all = text.split("\n", -1);
        return String.join("\n", Arrays.copyOfRange(all, Math.max(0, all.length - lines), all.length));
    }
}
