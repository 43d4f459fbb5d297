package io.upic.liftride.client;

import io.upic.liftride.client.cli.ParsedArgs;
import io.upic.liftride.client.cli.RunOptions;
import io.upic.liftride.client.cli.UsageException;
import io.upic.liftride.client.internal.EmbeddedTarget;

import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Command-line entry of client-part1. {@link #run(String[])} does everything and returns the exit code
 * (tests call it); {@link #main} adds the Ctrl-C handling and {@code System.exit}.
 *
 * <p>Exit codes: 0 every request succeeded and the counts reconcile; 1 a request failed, the
 * counts do not reconcile or the server is unreachable; 2 bad flags; 130 interrupted (Ctrl-C, after
 * the partial account is printed).
 */
public final class Main {

    /** How the usage names the command. */
    public static final String COMMAND = "java -jar client-part1.jar";
    /** How long Ctrl-C waits for the workers' in-flight attempts and the partial account. */
    private static final long SHUTDOWN_WAIT_SECONDS = 60;

    private final PrintStream out;
    private final PrintStream err;
    private final LocalServer.Starter starter;
    private final boolean console;
    private volatile ClientRunner runner;
    private volatile boolean shuttingDown;

    /** Real streams, the embedded Tomcat for runs without -i, progress when on a terminal. */
    public Main(PrintStream out, PrintStream err) {
        this(out, err, EmbeddedTarget::start, System.console() != null);
    }

    public Main(PrintStream out, PrintStream err, LocalServer.Starter starter, boolean console) {
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.starter = Objects.requireNonNull(starter, "starter");
        this.console = console;
    }

    public static void main(String[] args) {
        Main main = new Main(System.out, System.err);
        // The one thread not owned by the engine: the JVM only accepts a Thread as a shutdown hook.
        Thread hook = new Thread(main::onShutdown, "liftride-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = main.run(args);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            return; // Ctrl-C: the hook waited for the partial account; the JVM exits with the signal's code
        }
        System.exit(code);
    }

    /** Parses {@code args}, runs, prints, and returns the exit code; never calls {@code System.exit}. */
    public int run(String[] args) {
        ParsedArgs parsed;
        try {
            parsed = RunOptions.parse(args);
        } catch (UsageException e) {
            err.println(e.getMessage());
            err.print(RunOptions.usage(RunOptions.base(), COMMAND));
            err.flush();
            return UsageException.EXIT_CODE;
        }
        if (parsed.helpRequested()) {
            out.print(RunOptions.usage(RunOptions.base(), COMMAND));
            out.flush();
            return 0;
        }
        ClientRunner r = new ClientRunner(out, err, starter, console);
        runner = r;
        if (shuttingDown) r.stop();
        return r.run(parsed.configs(), RunHooks.NONE);
    }

    /** Ctrl-C (or any JVM shutdown) during a run: stop it and wait until its partial account is printed. */
    void onShutdown() {
        shuttingDown = true;
        ClientRunner r = runner;
        if (r == null || r.isFinished()) return;
        err.println();
        err.println("interrupted: stopping after the attempts in flight, then printing the partial account");
        r.stop();
        try {
            r.awaitFinished(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
