package io.upic.liftride.client.http.sdk;

import com.squareup.okhttp.ConnectionPool;
import java.lang.reflect.Field;
import java.util.concurrent.ExecutorService;

/**
 * Closing an OkHttp 2.7.5 {@link ConnectionPool} for good, thread included. Static and thread-safe.
 *
 * <p>Why: each pool owns a private executor whose one daemon thread, "OkHttp ConnectionPool", cleans
 * idle connections. {@link ConnectionPool#evictAll()} closes the idle connections but neither wakes
 * that thread (it sleeps up to the pool's keep-alive, 5 minutes for the load's pool) nor ends it (the
 * executor keeps an idle thread 60 s more). A finished run would leave one such thread per pool it
 * used behind for minutes. OkHttp 2 has no API to stop it, so this shuts the executor down through
 * its private field; if that field is not there (another OkHttp), the pool is still emptied and the
 * thread ends by itself later.
 */
public final class OkHttpPools {

    private static final Field EXECUTOR = executorField();

    private OkHttpPools() {}

    private static Field executorField() {
        try {
            Field f = ConnectionPool.class.getDeclaredField("executor");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Closes every idle connection of {@code pool} and ends its cleanup thread now. The pool must not
     * be used afterwards (a new connection could not schedule its cleanup). Never throws.
     */
    public static void shutDown(ConnectionPool pool) {
        pool.evictAll();
        if (EXECUTOR == null) {
            return;
        }
        try {
            if (EXECUTOR.get(pool) instanceof ExecutorService executor) {
                // interrupts the cleanup task's wait: it finds the pool empty and returns, and the thread ends
                executor.shutdownNow();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the thread ends by itself after the keep-alive; nothing is lost
        }
    }

    /** Whether {@link #shutDown} can end the cleanup thread with this OkHttp (tests). */
    static boolean canEndCleanupThread() {
        return EXECUTOR != null;
    }
}
