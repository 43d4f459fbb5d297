package io.upic.liftride.server.operations;

import javax.servlet.ServletContext;
import javax.servlet.ServletException;

/** Reads the shared objects {@link LiftRideListener} puts into the ServletContext, for every servlet. Stateless. */
public final class ContextAttributes {
    private ContextAttributes() {}

    public static <T> T require(ServletContext context, String name, Class<T> type) throws ServletException {
        Object value = context.getAttribute(name);
        if (!type.isInstance(value)) {
            throw new ServletException("ServletContext attribute " + name + " must be a " + type.getName() + " (set by "
                    + LiftRideListener.class.getName() + "), got " + value);
        }
        return type.cast(value);
    }
}
