package io.upic.liftride.testkit;

import io.upic.liftride.cluster.Programs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What only tests do with programs and processes: Python tools installed with pip, signals, thread dumps and
 * the default interrupt handlers a child needs. Stateless; installing is serialized.
 */
public final class Shell {
    private static final Duration INSTALL_LIMIT = Duration.ofMinutes(10);

    private Shell() {}

    /**
     * The path of {@code command} from PyPI package {@code pipPackage} pinned at {@code version}, installed
     * with pip into its own virtual environment under {@code ~/.cache/liftride/} the first time and reused
     * after (the interpreter: {@code -Dliftride.python=...}, else python3, installed with apt-get if missing).
     */
    public static synchronized Path requirePip(String command, String pipPackage, String version) {
        Path venv = Path.of(System.getProperty("user.home"), ".cache", "liftride", pipPackage + "-" + version);
        Path tool = venv.resolve("bin").resolve(command);
        if (Files.isExecutable(tool)
                && Programs.exec(Duration.ofSeconds(60), tool.toString(), "--version")
                        .output()
                        .contains(version)) {
            return tool;
        }
        String python = System.getProperty("liftride.python");
        if (python == null) {
            python = Programs.require("python3", "python3-venv");
        }
        Programs.Result made = Programs.exec(INSTALL_LIMIT, python, "-m", "venv", "--clear", venv.toString());
        if (made.exitCode() != 0) {
            throw new IllegalStateException(
                    "could not create a virtual environment in " + venv + " with " + python + ":\n" + made.tail(30));
        }
        System.err.println("installing " + pipPackage + " " + version + " into " + venv + " (pip, once)");
        Programs.Result pip = Programs.exec(
                INSTALL_LIMIT,
                venv.resolve("bin").resolve("pip").toString(),
                "install",
                "-q",
                pipPackage + "==" + version);
        if (pip.exitCode() != 0 || !Files.isExecutable(tool)) {
            throw new IllegalStateException("pip could not install " + pipPackage + " " + version + " (exit "
                    + pip.exitCode() + "):\n" + pip.tail(30));
        }
        return tool;
    }

    /** Sends {@code signal} (e.g. "KILL", "STOP", "CONT") to a process. */
    public static void signal(long pid, String signal) {
        Programs.Result result = Programs.exec(Duration.ofSeconds(10), "kill", "-" + signal, Long.toString(pid));
        if (result.exitCode() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + result.output());
        }
    }

    /**
     * {@code command} started so that SIGINT and SIGQUIT do what they do by default (Java: run the shutdown hooks;
     * print a thread dump, or answer jcmd), whatever this JVM inherited. A process started without job control
     * ({@code nohup mvn verify &}, some CI runners) has both ignored, its children inherit that through fork and
     * exec, a JVM keeps an ignored SIGINT ignored ({@code sun.misc.Signal} cannot take it back), and a POSIX shell
     * cannot reset a signal ignored on entry; perl can, before it execs the command in its own place (same pid).
     */
    public static List<String> withDefaultInterrupts(List<String> command) {
        List<String> full = new ArrayList<>(List.of(
                Programs.require("perl", "perl-base"),
                "-e",
                "$SIG{INT} = $SIG{QUIT} = 'DEFAULT'; exec {$ARGV[0]} @ARGV or die \"cannot run $ARGV[0]: $!\\n\"",
                "--"));
        full.addAll(command);
        return full;
    }

    /**
     * Whether process {@code pid} ignores {@code signal} (a number: 2 for SIGINT), from its {@code SigIgn} mask in
     * {@code /proc}; false where there is no such file (not Linux, or the process is gone).
     */
    public static boolean ignores(long pid, int signal) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) >>> (signal - 1) & 1) != 0;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /**
     * The thread dump of JVM {@code pid} ({@code jcmd PID Thread.print}, at most 30 s), for the log of a test whose
     * child outlived its deadline; a line saying why when there is none.
     */
    public static String threadDump(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return "(no thread dump of " + pid + ": no " + jcmd + ")";
        }
        Programs.Result r = Programs.exec(Duration.ofSeconds(30), jcmd.toString(), Long.toString(pid), "Thread.print");
        return r.exitCode() == 0
                ? r.output()
                : "(no thread dump of " + pid + ": jcmd exit " + r.exitCode() + ") " + r.tail(5);
    }
}
