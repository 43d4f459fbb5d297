package io.upic.liftride.client.http.sdk;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.RealConnectionPool;

/**
 * One worker's OkHttp client: the run's client with a connection pool and dispatcher of its own, so its calls
 * take no lock another worker takes, and a pool whose cleanup never runs, so no thread wakes per request
 * (data/sdk-path.md). Thread-safe; its calls come from one worker. Relies on OkHttp 4 internals ({@code
 * TaskRunner}, {@code RealConnectionPool}): {@code SdkTransportResourcesTest} fails if an upgrade changes them.
 */
final class WorkerPool implements AutoCloseable {

    private final OkHttpClient http;
    private final Consumer<WorkerPool> onClose;

    /** A client derived from {@code run} with its own pool and dispatcher; {@code onClose} is told once. */
    WorkerPool(OkHttpClient run, Consumer<WorkerPool> onClose) {
        this.http = run.newBuilder()
                .connectionPool(threadlessPool())
                .dispatcher(new Dispatcher())
                .build();
        this.onClose = onClose;
    }

    /** A pool whose cleanup never runs; a worker's one connection never reaches its limits. */
    static ConnectionPool threadlessPool() {
        return new ConnectionPool(new RealConnectionPool(new TaskRunner(NoThreads.INSTANCE), 1, 5, TimeUnit.MINUTES));
    }

    /** The client this worker's calls run on. */
    OkHttpClient httpClient() {
        return http;
    }

    /** Connections in this worker's pool, idle or in use. */
    int connectionCount() {
        return http.connectionPool().connectionCount();
    }

    /** Closes the idle connections (all of them once the worker's call has ended); later calls open new ones. */
    @Override
    public void close() {
        http.connectionPool().evictAll();
        onClose.accept(this);
    }

    /** A task runner backend that starts no thread, so the queued cleanup never runs. */
    private enum NoThreads implements TaskRunner.Backend {
        INSTANCE;

        @Override
        public void execute(Runnable runnable) {
            // the task runner asks for a thread to run its queued tasks: none is started, nothing runs
        }

        @Override
        public void beforeTask(TaskRunner taskRunner) {}

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void coordinatorNotify(TaskRunner taskRunner) {}

        @Override
        public void coordinatorWait(TaskRunner taskRunner, long nanos) {}
    }
}
