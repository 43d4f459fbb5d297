package io.upic.liftride.server.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of the cluster (redis-server, a LiftRide server, nginx): its command, its log file in the
 * run directory, and the running process, which can be killed and started again with the same command.
 * Thread-safe (its methods are synchronized).
 */
final class ChildProcess {
    private final String name;
    private final List<String> command;
    private final Path log;
    private final Spawner spawner;
    private Process process;

    ChildProcess(String name, List<String> command, Path log, Spawner spawner) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
        this.spawner = spawner;
    }

    String name() {
        return name;
    }

    /** Starts it (again); a previous process must have ended. */
    synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        process = spawner.spawn(command, log);
    }

    synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, as a crash: the process gets no chance to finish anything. Returns once it is gone. */
    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(10));
        }
    }

    /** SIGTERM (each program's clean stop), then SIGKILL if it has not ended within {@code grace}. */
    synchronized void stop(Duration grace) {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(grace)) {
            kill();
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Fails with the end of its log if the process has ended; for start-up waits. */
    void requireAlive() {
        if (!isAlive()) {
            throw new IllegalStateException(name + " exited while starting; the end of " + log + ":\n" + logTail());
        }
    }

    /** The last lines of its log, for error messages. */
    String logTail() {
        try {
            List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
