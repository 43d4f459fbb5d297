package io.upic.liftride.server.embedded;

import io.upic.liftride.server.web.JsonResponses;
import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * The embedded host's error report: {@code {"message": "..."}} instead of Tomcat's HTML page, for
 * errors raised outside the web application's error pages (a URI Tomcat cannot decode, a path outside
 * {@code /liftride}). Thread-safe: stateless. A standalone Tomcat gets the same effect from its own
 * {@code org.apache.catalina.valves.JsonErrorReportValve} (see servlet/tomcat/server.xml).
 */
public final class JsonErrorReportValve extends ErrorReportValve {
  private static final int MAX_MESSAGE_CHARS = 200;

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    // the same conditions as Tomcat's own report: an error, nothing written yet, reported once
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(true);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return; // the connection is broken; nobody would read the answer
    }
    String message = response.getMessage();
    if (throwable != null || status >= 500 || message == null || message.isBlank()) {
      message = JsonResponses.reason(status); // exception text is for logs, not clients
    } else if (message.length() > MAX_MESSAGE_CHARS) {
      message = message.substring(0, MAX_MESSAGE_CHARS) + "...";
    }
    try {
      response.setContentType(JsonResponses.CONTENT_TYPE);
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(JsonResponses.messageJson(message));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException ignored) {
      // the client went away or the response was committed meanwhile: nothing left to tell anyone
    }
  }
}
