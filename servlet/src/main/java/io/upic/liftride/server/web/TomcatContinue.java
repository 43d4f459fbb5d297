package io.upic.liftride.server.web;

import java.lang.reflect.Field;
import javax.servlet.ServletRequest;
import javax.servlet.ServletRequestWrapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.ActionCode;
import org.apache.coyote.ContinueResponseTiming;

/**
 * Sends "100 Continue" to a client that expects one before the application reads its body without blocking
 * (a non-blocking read never sends it; {@code continueResponseTiming="onRead"} keeps a 413 or 415 the first
 * answer). Reaches Tomcat's request behind the facade; elsewhere does nothing. Stateless and thread-safe.
 */
final class TomcatContinue {
    private static final Field FACADE_REQUEST = facadeRequest();

    private TomcatContinue() {}

    /** Sends "100 Continue" now, if the client expects one and none was sent. */
    static void send(ServletRequest request) {
        ServletRequest inner = request;
        while (inner instanceof ServletRequestWrapper wrapper) {
            inner = wrapper.getRequest();
        }
        if (FACADE_REQUEST == null || !(inner instanceof RequestFacade)) {
            return;
        }
        try {
            Request tomcat = (Request) FACADE_REQUEST.get(inner);
            tomcat.getCoyoteRequest().action(ActionCode.ACK, ContinueResponseTiming.ALWAYS);
        } catch (IllegalAccessException | RuntimeException notThisTomcat) {
            // the client sends its body after its own pause
        }
    }

    private static Field facadeRequest() {
        try {
            Field field = RequestFacade.class.getDeclaredField("request");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException notThisTomcat) {
            return null;
        }
    }
}
