package io.upic.liftride.server.web;

import io.upic.liftride.server.store.InMemoryRideStore;
import io.upic.liftride.server.store.RideStore;
import javax.servlet.ServletContext;
import javax.servlet.ServletContextEvent;
import javax.servlet.ServletContextListener;

/**
 * Creates the application's shared objects when the web application starts: the {@link RideStore}
 * (in memory, seeded with resorts 1..10) and the {@link EndpointStats}. Servlets and filters read them
 * from the ServletContext in their {@code init}, so each deployment has its own and none is static.
 */
public final class LiftRideListener implements ServletContextListener {
    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        context.setAttribute(RideStore.ATTRIBUTE, InMemoryRideStore.withSeedResorts());
        context.setAttribute(EndpointStats.ATTRIBUTE, new EndpointStats());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        context.removeAttribute(RideStore.ATTRIBUTE);
        context.removeAttribute(EndpointStats.ATTRIBUTE);
    }
}
