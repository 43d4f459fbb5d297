package io.upic.liftride.server.operations;

import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.store.RideStore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.servlet.ServletContext;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;
import org.apache.catalina.Service;

/**
 * Creates the application's shared objects when it starts ({@link RideStore}, {@link EndpointStats}, {@link
 * Drain}, {@link StoreProbe}, {@link Metrics}) and puts them in the ServletContext, so each deployment has its own
 * and none is static; on Tomcat it also hooks the {@link TomcatDrain} and {@link ManagementPort}.
 */
public final class LiftRideListener implements ServletContextListener {
    /** The context attribute with a {@code Consumer<String>} for the drain's lines; else stdout. */
    public static final String LOG_ATTRIBUTE = "io.upic.liftride.log";

    private static final Consumer<String> STDOUT = System.out::println;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        OperatingSettings settings;
        Limits limits;
        StoreSpec spec;
        try { // the launcher's context parameters, else the system properties, else the environment
            settings = OperatingSettings.read(OperatingSettings.contextThenSystem(context::getInitParameter));
            limits = Limits.resolve(context::getInitParameter);
            String launcher = context.getInitParameter(StoreSpec.PROPERTY);
            spec = launcher != null ? StoreSpec.parse(launcher) : StoreSpec.fromEnvironment();
        } catch (IllegalArgumentException e) {
            String line = "LiftRide cannot start: " + e.getMessage();
            context.log(line);
            throw new IllegalStateException(line, e);
        }
        context.setAttribute(Limits.ATTRIBUTE, limits);
        RideStore store = spec.open(limits);
        context.setAttribute(RideStore.ATTRIBUTE, store);
        Metrics metrics = settings.metrics() ? new Metrics() : null;
        context.setAttribute(EndpointStats.ATTRIBUTE, new EndpointStats(metrics == null ? null : metrics.registry()));
        Drain drain = new Drain();
        context.setAttribute(Drain.ATTRIBUTE, drain);
        context.setAttribute(StoreProbe.class.getName(), new StoreProbe(store, settings.pingDeadline()));
        if (metrics != null) {
            metrics.bindStore(store);
            context.setAttribute(Metrics.ATTRIBUTE, metrics);
        }
        TomcatConnectors.service(context).ifPresent(service -> {
            context.setAttribute(ManagementPort.ATTRIBUTE, TomcatConnectors.connectors(service));
            if (metrics != null) {
                metrics.bindConnectors(TomcatConnectors.api(service));
            }
            TomcatDrain onStop = new TomcatDrain(drain, service, store, settings, drainLog(context));
            service.getServer().addLifecycleListener(onStop);
            context.setAttribute(TomcatDrain.class.getName(), onStop);
            context.setAttribute(Service.class.getName(), service);
        });
    }

    /** Where the drain's steps go: {@link #LOG_ATTRIBUTE}'s consumer, else stdout. */
    @SuppressWarnings("unchecked")
    private static Consumer<String> drainLog(ServletContext context) {
        Consumer<String> log =
                context.getAttribute(LOG_ATTRIBUTE) instanceof Consumer<?> c ? (Consumer<String>) c : STDOUT;
        return line -> log.accept("LiftRide drain: " + line);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        if (context.getAttribute(Service.class.getName()) instanceof Service service
                && context.getAttribute(TomcatDrain.class.getName()) instanceof TomcatDrain onStop) {
            service.getServer().removeLifecycleListener(onStop);
        }
        boolean draining = context.getAttribute(Drain.ATTRIBUTE) instanceof Drain drain && drain.draining();
        if (context.getAttribute(RideStore.ATTRIBUTE) instanceof RideStore store) {
            long startNanos = System.nanoTime();
            int queued = store.queuedRides();
            store.close();
            if (draining) {
                drainLog(context)
                        .accept("store closed in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
                                + " ms (" + queued + " rides were queued: applied, or answered 503)");
            }
        }
        if (context.getAttribute(StoreProbe.class.getName()) instanceof StoreProbe probe) {
            probe.close();
        }
        if (context.getAttribute(Metrics.ATTRIBUTE) instanceof Metrics metrics) {
            metrics.close();
        }
    }
}
