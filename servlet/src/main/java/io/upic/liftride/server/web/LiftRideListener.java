package io.upic.liftride.server.web;

import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.store.RideStore;
import io.upic.liftride.server.store.StoreSpec;
import javax.servlet.ServletContext;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;

/**
 * Creates the application's shared objects when the web application starts: the {@link RideStore}
 * (in memory, seeded with resorts 1..10, unless {@link StoreSpec} names Redis) and the {@link
 * EndpointStats}. Servlets and filters read them from the ServletContext in their {@code init}, so each
 * deployment has its own and none is static.
 */
public final class LiftRideListener implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        Limits limits = limits(context);
        context.setAttribute(Limits.ATTRIBUTE, limits);
        context.setAttribute(RideStore.ATTRIBUTE, storeSpec(context).open(limits));
        context.setAttribute(EndpointStats.ATTRIBUTE, new EndpointStats());
    }

    /**
     * The launcher's {@code --store} (a context parameter), else {@link StoreSpec#fromEnvironment()}. A
     * bad value stops the application with one line naming it.
     */
    static StoreSpec storeSpec(ServletContext context) {
        String fromLauncher = context.getInitParameter(StoreSpec.PROPERTY);
        try {
            return fromLauncher != null ? StoreSpec.parse(fromLauncher) : StoreSpec.fromEnvironment();
        } catch (IllegalArgumentException e) {
            String line =
                    "LiftRide cannot start: " + StoreSpec.PROPERTY + " / " + StoreSpec.ENV + ": " + e.getMessage();
            context.log(line);
            throw new IllegalStateException(line, e);
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
            String line = "LiftRide cannot start: " + e.getMessage();
            context.log(line);
            throw new IllegalStateException(line, e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        if (context.getAttribute(RideStore.ATTRIBUTE) instanceof RideStore store) {
            store.close();
        }
        context.removeAttribute(RideStore.ATTRIBUTE);
        context.removeAttribute(EndpointStats.ATTRIBUTE);
        context.removeAttribute(Limits.ATTRIBUTE);
    }
}
