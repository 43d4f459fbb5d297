package io.upic.liftride.server.web;

import java.lang.reflect.Field;
import javax.servlet.ServletRequest;
import javax.servlet.ServletRequestWrapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.ActionCode;
import org.apache.coyote.ContinueResponseTiming;

/**
 * Sends "100 Continue" to a client that asked for it ({@code Expect: 100-continue}) and whose body the
 * application is about to read without blocking. The connectors send it only on a blocking read
 * ({@code continueResponseTiming="onRead"}, so that a 413 or 415 decided from the headers is the
 * client's first answer), and a non-blocking read never makes one: without this the client would wait
 * for the 100 and the server for the body. Tomcat has no public call for it, so this reaches Tomcat's
 * request behind the servlet facade; elsewhere it does nothing (clients send the body after a pause
 * anyway). Stateless and thread-safe.
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
