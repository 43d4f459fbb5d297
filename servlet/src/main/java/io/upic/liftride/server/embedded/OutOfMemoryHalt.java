package io.upic.liftride.server.embedded;

import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Halts the launcher's JVM on an OutOfMemoryError, as {@code -XX:+ExitOnOutOfMemoryError} does, whether it reaches
 * the top of a thread or Tomcat logs it: a server that lost its threads must stop, to be restarted. Thread-safe;
 * installed once per JVM by {@link #install()}.
 */
final class OutOfMemoryHalt extends Handler {
    /** The exit code: the JVM's own with {@code -XX:+ExitOnOutOfMemoryError}. */
    static final int EXIT_CODE = 3;

    private static final String LINE =
            "LiftRide server: OutOfMemoryError, halting (exit " + EXIT_CODE + ") so that it is restarted";

    private OutOfMemoryHalt() {}

    /** Installs the halt as the default uncaught-exception handler and as a handler of the root logger. */
    static void install() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            haltIfOutOfMemory(error);
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else { // what the JVM prints without a handler (ThreadGroup's own would call this one again)
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace();
            }
        });
        Logger.getLogger("").addHandler(new OutOfMemoryHalt());
    }

    @Override
    public void publish(LogRecord record) {
        haltIfOutOfMemory(record.getThrown());
    }

    private static void haltIfOutOfMemory(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                try {
                    System.err.println(LINE);
                } finally {
                    Runtime.getRuntime().halt(EXIT_CODE);
                }
            }
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
