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
        OperatingSettings settings = settings(context);
        Limits limits = limits(context);
        context.setAttribute(Limits.ATTRIBUTE, limits);
        RideStore store = storeSpec(context).open(limits);
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

    /** The launcher's {@code --store}, else {@link StoreSpec#fromEnvironment()}. */
    static StoreSpec storeSpec(ServletContext context) {
        String fromLauncher = context.getInitParameter(StoreSpec.PROPERTY);
        try {
            return fromLauncher != null ? StoreSpec.parse(fromLauncher) : StoreSpec.fromEnvironment();
        } catch (IllegalArgumentException e) {
            throw cannotStart(context, StoreSpec.PROPERTY + " / " + StoreSpec.ENV + ": " + e.getMessage(), e);
        }
    }

    /**
     * The limits from the launcher's flags (context parameters named after the system properties),
     * else the system properties, else the environment. A bad value stops the application with one line.
     */
    static Limits limits(ServletContext context) {
        try {
            return Limits.resolve(context::getInitParameter);
        } catch (IllegalArgumentException e) {
            throw cannotStart(context, e.getMessage(), e);
        }
    }

    /** The drain, health and metrics settings; a bad value stops the application with one line naming it. */
    static OperatingSettings settings(ServletContext context) {
        try {
            return OperatingSettings.read(OperatingSettings.contextThenSystem(context::getInitParameter));
        } catch (IllegalArgumentException e) {
            throw cannotStart(context, e.getMessage(), e);
        }
    }

    private static IllegalStateException cannotStart(ServletContext context, String why, Exception e) {
        String line = "LiftRide cannot start: " + why;
        context.log(line);
        return new IllegalStateException(line, e);
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
        for (String name : new String[] {
            RideStore.ATTRIBUTE,
            EndpointStats.ATTRIBUTE,
            Drain.ATTRIBUTE,
            StoreProbe.class.getName(),
            Metrics.ATTRIBUTE,
            Limits.ATTRIBUTE,
            TomcatDrain.class.getName(),
            Service.class.getName(),
            ManagementPort.ATTRIBUTE
        }) {
            context.removeAttribute(name);
        }
    }
}
