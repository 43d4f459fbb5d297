package io.upic.liftride.server.operations;

import io.upic.liftride.server.store.RideStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleEvent;
import org.apache.catalina.LifecycleListener;
import org.apache.catalina.Service;
import org.apache.catalina.connector.Connector;

/**
 * The graceful drain, run when Tomcat begins to stop and before it touches a connector: (1) not ready; (2) the
 * grace period, serving as before while a load balancer sees the 503; (3) the API's connectors stop accepting and
 * every answer closes its connection; (4) the requests in flight finish until none has run for {@value
 * #QUIET_MILLIS} ms. Steps (2) to (4) are bounded by {@link OperatingSettings#drainMax()}; then {@link
 * LiftRideListener} closes the store. docs/operating.md tells why. Runs once, on Tomcat's stopping thread.
 */
final class TomcatDrain implements LifecycleListener {
    /** Poll interval while waiting for requests to finish. */
    private static final long POLL_MILLIS = 20;
    /** No request in flight for this long (or the grace period, if shorter): the proxies stopped sending here. */
    private static final long QUIET_MILLIS = 500;

    private final Drain drain;
    private final Service service;
    private final RideStore store;
    private final OperatingSettings settings;
    private final Consumer<String> log;

    TomcatDrain(Drain drain, Service service, RideStore store, OperatingSettings settings, Consumer<String> log) {
        this.drain = drain;
        this.service = service;
        this.store = store;
        this.settings = settings;
        this.log = log;
    }

    @Override
    public void lifecycleEvent(LifecycleEvent event) {
        if (Lifecycle.BEFORE_STOP_EVENT.equals(event.getType()) && !drain.draining()) {
            run();
        }
    }

    /** The drain's steps; returns when no request has run for a while or the maximum has passed. */
    void run() {
        long startNanos = System.nanoTime();
        long deadlineNanos = startNanos + settings.drainMax().toNanos();
        drain.begin();
        log.accept("not ready: /health/ready answers 503; grace period "
                + settings.drainGrace().toMillis() + " ms (maximum "
                + settings.drainMax().toMillis() + " ms)");
        sleepUntil(Math.min(startNanos + settings.drainGrace().toNanos(), deadlineNanos));
        List<Connector> connectors = TomcatConnectors.api(service);
        for (Connector connector : connectors) {
            boolean boundOnStart = "false".equals(String.valueOf(connector.getProperty("bindOnInit")));
            int port = connector.getLocalPort();
            connector.getProtocolHandler().closeServerSocketGraceful();
            log.accept(
                    boundOnStart
                            ? "grace period over: port " + port + " stopped accepting connections"
                            : "grace period over: port " + port + " still accepts: its Connector needs"
                                    + " bindOnInit=\"false\" for the listening socket to close before Tomcat stops");
        }
        drain.closeConnections();
        log.accept("every answer now closes its connection");
        awaitQuiet(connectors, deadlineNanos);
        log.accept(String.format(
                "%d rides still queued for the store; Tomcat stops now (%d ms after the drain began)",
                store.queuedRides(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)));
    }

    private void awaitQuiet(List<Connector> connectors, long deadlineNanos) {
        long quietSince = System.nanoTime();
        long quietMillis = Math.min(QUIET_MILLIS, settings.drainGrace().toMillis());
        long quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMillis);
        while (true) {
            long now = System.nanoTime();
            // A POST answered later (async) holds no thread while its ride is in the store's batch: count the rides
            // too.
            int busy = TomcatConnectors.busyThreads(connectors) + store.pendingRides();
            if (busy > 0) {
                quietSince = now;
            }
            if (busy == 0 && now - quietSince >= quietNanos) {
                log.accept("requests in flight finished; none for " + quietMillis + " ms");
                return;
            }
            if (now >= deadlineNanos) {
                log.accept("maximum " + settings.drainMax().toMillis() + " ms reached with " + busy
                        + " request(s) in flight: stopping anyway");
                return;
            }
            sleepUntil(Math.min(now + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS), deadlineNanos));
        }
    }

    private static void sleepUntil(long deadlineNanos) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // asked to stop now: the drain is cut short, Tomcat stops
            }
        }
    }
}
