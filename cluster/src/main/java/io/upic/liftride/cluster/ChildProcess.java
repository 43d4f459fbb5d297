package io.upic.liftride.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One process the cluster or a test runs (redis-server, a LiftRide server, nginx): its command, its log
 * file, and the running process, which can be killed and started again with the same command. Started
 * through a {@link Spawner}, so it dies with the JVM. Thread-safe (its methods are synchronized).
 */
public final class ChildProcess {
    private final String name;
    private final List<String> command;
    private final Path log;
    private final Spawner spawner;
    private Process process;

    /** A process not started yet: {@code command}, its output appended to {@code log}. */
    public ChildProcess(String name, List<String> command, Path log, Spawner spawner) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
        this.spawner = spawner;
    }

    public String name() {
        return name;
    }

    /** Starts it (again); a previous process must have ended. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        process = spawner.spawn(command, log);
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, as a crash: the process gets no chance to finish anything. Returns once it is gone. */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(10));
        }
    }

    /** SIGTERM (each program's clean stop), then SIGKILL if it has not ended within {@code grace}. */
    public synchronized void stop(Duration grace) {
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

    /** Returns once {@code ready}; fails with the log's end if the process ends or {@code limit} passes. */
    public void await(Duration limit, BooleanSupplier ready) {
        try {
            Poll.until(name, limit, () -> {
                requireAlive();
                return ready.getAsBoolean();
            });
        } catch (IllegalStateException e) {
            throw isAlive() ? new IllegalStateException(e.getMessage() + "; the end of its log:\n" + logTail(), e) : e;
        }
    }

    /** Fails with the end of its log if the process has ended; for start-up waits. */
    public void requireAlive() {
        if (!isAlive()) {
            throw new IllegalStateException(name + " exited while starting; the end of " + log + ":\n" + logTail());
        }
    }

    /** The last lines of its log, for error messages. */
    public String logTail() {
        try {
            return Programs.lastLines(Files.readString(log, StandardCharsets.UTF_8), 20);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
