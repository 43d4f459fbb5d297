package io.upic.liftride.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts child processes so that they die with this JVM, even when it is SIGKILLed: each
 * command runs under {@code setpriv --pdeathsig KILL}, and always from one thread that lives as long as
 * the spawner, because Linux sends the parent-death signal when the <em>thread</em> that forked the
 * child ends, not only the process. Without setpriv (not Linux) children are started plainly and only a
 * clean stop ends them. Thread-safe; {@link #close()} ends the thread (and so any child still running).
 */
public final class Spawner implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "liftride-spawner");
        t.setDaemon(true); // lives until close() or the JVM's end, whichever comes first
        return t;
    });
    private final String setpriv = Programs.onPath("setpriv");

    /** Whether children die with this JVM even when it is killed. */
    public boolean childrenDieWithUs() {
        return setpriv != null;
    }

    /** Starts {@code command} with stdout and stderr appended to {@code log}. */
    public Process spawn(List<String> command, Path log) {
        List<String> full = new ArrayList<>();
        if (setpriv != null) {
            full.addAll(List.of(setpriv, "--pdeathsig", "KILL", "--"));
        }
        full.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(full)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Future<Process> started = thread.submit(builder::start);
        try {
            return started.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException("cannot start " + command.get(0) + ": " + io.getMessage(), io);
            }
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("starting " + command.get(0) + " took over 60 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + command.get(0), e);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
