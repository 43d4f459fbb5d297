package io.upic.liftride.bench;

import io.upic.liftride.server.embedded.EmbeddedServer;
import java.util.Arrays;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * The real embedded LiftRide server plus {@link BareServlet} at {@value #MAPPING} (relative to the
 * context path): the floor bench/bench.py compares the real POST with, in the same JVM and on the
 * same connector ({@code wrk -s servlet/bench/post.lua http://127.0.0.1:PORT/liftride/bench/bare}).
 * Takes the launcher's flags and prints its URL line:
 * {@code java -cp "$BENCH_CP" io.upic.liftride.bench.BareServer --port 0}.
 */
public final class BareServer {
    static final String SERVLET_NAME = "bench-bare";
    static final String MAPPING = "/bench/bare/*";

    private BareServer() {}

    public static void main(String[] args) throws InterruptedException {
        EmbeddedServer.runFromCommandLine(args, BareServer::mapBareServlet);
    }

    /**
     * Adds the bare servlet to {@code context} at {@value #MAPPING}. Refuses a context with a filter that
     * would run in front of it (a pattern matching {@value #MAPPING}, or a servlet-name mapping): the floor
     * must be Tomcat plus an empty servlet, nothing more.
     */
    static void mapBareServlet(Context context) {
        FilterMap[] filters = Arrays.stream(context.findFilterMaps())
                .filter(BareServer::reachesBareServlet)
                .toArray(FilterMap[]::new);
        if (filters.length > 0) {
            throw new IllegalStateException("the bare servlet must have no filter in front of it, but the context maps "
                    + Arrays.toString(filters));
        }
        Tomcat.addServlet(context, SERVLET_NAME, new BareServlet());
        context.addServletMappingDecoded(MAPPING, SERVLET_NAME);
    }

    private static boolean reachesBareServlet(FilterMap filter) {
        if (filter.getMatchAllServletNames() || filter.getServletNames().length > 0) {
            return true;
        }
        String path = MAPPING.substring(0, MAPPING.length() - 1) + "x";
        return filter.getMatchAllUrlPatterns()
                || Arrays.stream(filter.getURLPatterns())
                        .anyMatch(p -> p.equals("/*")
                                || (p.endsWith("/*") && path.startsWith(p.substring(0, p.length() - 1)))
                                || (p.startsWith("*.") && path.endsWith(p.substring(1))));
    }
}
