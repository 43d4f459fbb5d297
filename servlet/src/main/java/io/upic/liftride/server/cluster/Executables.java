package io.upic.liftride.server.cluster;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The programs the local cluster runs (redis-server, nginx, setpriv): found on the PATH (or in /usr/sbin,
 * where Debian puts nginx), else installed from Debian's package when this is a Debian-like machine and
 * we are root, else a one-line error saying what to install. Stateless; {@link #require} is serialized.
 */
final class Executables {
    private Executables() {}

    /** The path of {@code program}, installing {@code debianPackage} with apt-get first if it is missing. */
    static synchronized String require(String program, String debianPackage, PrintStream log) {
        String found = find(program);
        if (found != null) {
            return found;
        }
        if (find("apt-get") == null || !"root".equals(System.getProperty("user.name"))) {
            throw new IllegalStateException(
                    program + " is not installed: install it (Debian: apt-get install " + debianPackage + ")");
        }
        log.println(program + " is not installed: apt-get install " + debianPackage);
        int exit = run(
                "sh",
                "-c",
                "apt-get update -qq && DEBIAN_FRONTEND=noninteractive"
                        + " apt-get install -y -qq --no-install-recommends " + debianPackage);
        String installed = find(program);
        if (installed == null) {
            throw new IllegalStateException(program + " is not installed and apt-get install " + debianPackage
                    + " did not install it (exit " + exit + ")");
        }
        return installed;
    }

    /** The executable {@code program} on the PATH or in /usr/sbin, or null. */
    static String find(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + File.pathSeparator + "/usr/sbin";
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static int run(String... command) {
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing", e);
        }
    }
}
