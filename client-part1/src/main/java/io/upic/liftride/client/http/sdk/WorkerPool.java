package io.upic.liftride.client.http.sdk;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.internal.concurrent.TaskRunner;
import okhttp3.internal.connection.RealConnectionPool;

/**
 * One worker's OkHttp client: the run's client derived with {@link OkHttpClient#newBuilder()} (timeouts,
 * socket factory and every other setting shared) with a connection pool and a dispatcher of its own, so
 * its calls touch no lock another worker takes. {@link #close()} closes its idle connections. Thread-safe;
 * its calls come from one worker.
 *
 * <p>Why per worker: a worker sends one request at a time, so its pool holds its one connection, found at
 * once; in a pool shared by 64 workers every call searched the 64 connections, locking each in turn against
 * the other workers, and the shared dispatcher took one monitor three times a call.
 *
 * <p>Why the pool's maintenance runs on no thread: OkHttp schedules a pool's cleanup every time one of its connections
 * goes idle, that is after every call, on its process-wide task runner, whose thread then wakes for every request
 * (about 100 µs of process CPU per request with 4 workers, data/sdk-path.md). Here each pool has a task runner of its
 * own that runs nothing: the cleanup is scheduled once and stays scheduled, and scheduling it again after a call finds
 * it there and returns. Nothing is lost for a worker's pool: what the cleanup would evict (connections idle past a
 * keep-alive, or more idle connections than a limit) does not arise while the worker runs, because it keeps using its
 * one connection; OkHttp drops a connection that failed or that the server closed in an answer when its call releases
 * it, without the cleanup, and checks a connection idle for 10 s or more before sending a POST on it; and the worker's
 * idle connection is closed when it ends ({@link SdkRideSender#close()}) or the run does.
 *
 * <p>Relies on two OkHttp 4 internals ({@code TaskRunner} and {@code RealConnectionPool}, and the {@link
 * ConnectionPool} constructor taking the latter): {@code SdkTransportResourcesTest} fails if an OkHttp
 * upgrade changes them.
 */
final class WorkerPool implements AutoCloseable {

    private final OkHttpClient http;
    private final Consumer<WorkerPool> onClose;

    /**
     * A client derived from {@code run} with a pool and dispatcher of its own; {@code onClose} is told once
     * this is closed (the factory forgets it).
     */
    WorkerPool(OkHttpClient run, Consumer<WorkerPool> onClose) {
        this.http = run.newBuilder()
                .connectionPool(threadlessPool())
                .dispatcher(new Dispatcher())
                .build();
        this.onClose = onClose;
    }

    /**
     * A pool whose cleanup never runs (see the class comment). Its limits of one idle connection and 5
     * minutes are those the cleanup would apply: they are never reached while the worker runs.
     */
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

    /**
     * A task runner backend that starts no thread, so nothing queued ever runs: the cleanup stays queued.
     * Scheduling reads the clock; waiting and waking are only done by a thread the runner started, so never.
     */
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
