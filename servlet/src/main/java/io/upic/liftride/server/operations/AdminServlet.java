package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import io.upic.liftride.server.http.NotFoundServlet;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.limits.Limits;
import io.upic.liftride.server.store.RideStore;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * {@code /admin/limits}: GET answers the store's limits, POST with query parameters named after the launcher's
 * flags sets them without a restart (only {@link #RUNTIME} can change). This server only. Thread-safe: its only
 * field is set once in {@link #init()}, and {@code setLimits} is atomic.
 */
public final class AdminServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    /** The limits an operator may change at runtime. */
    static final List<Limit> RUNTIME = List.of(
            Limit.RESORTS, Limit.SEASONS_PER_RESORT, Limit.RESORT_DAYS, Limit.SKIER_DAYS, Limit.CLIENT_SHARE_PERCENT);

    private transient RideStore store;

    @Override
    public void init() throws ServletException {
        store = ContextAttributes.require(getServletContext(), RideStore.ATTRIBUTE, RideStore.class);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = NotFoundServlet.pathOf(request);
        if (!path.equals("/admin/limits")) {
            NotFoundServlet.noRoute(request, response, path);
            return;
        }
        String method = request.getMethod();
        if (method.equals("POST")) {
            String refusal = set(request.getQueryString());
            if (refusal != null) {
                JsonResponses.message(response, HttpServletResponse.SC_BAD_REQUEST, refusal);
                return;
            }
        } else if (!method.equals("GET") && !method.equals("HEAD")) {
            JsonResponses.methodNotAllowed(response, method, path, "GET, HEAD, POST");
            return;
        }
        Limits now = store.limits();
        Map<String, Object> limits = new LinkedHashMap<>();
        RUNTIME.forEach(limit -> limits.put(limit.flag(), now.get(limit)));
        JsonResponses.send(response, HttpServletResponse.SC_OK, limits);
    }

    /** Sets every limit {@code query} names, all or none; null, or why not. */
    private synchronized String set(String query) {
        if (query == null || query.isEmpty()) {
            return "name at least one limit to set: " + flags();
        }
        Limits limits = store.limits();
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            Limit limit = RUNTIME.stream()
                    .filter(l -> l.flag().equals(name))
                    .findFirst()
                    .orElse(null);
            if (limit == null) {
                return "a limit settable at runtime must be one of " + flags() + ", got \"" + name + "\"";
            }
            try {
                limits = limits.with(limit, limit.parse(value));
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        store.setLimits(limits);
        return null;
    }

    private static String flags() {
        return RUNTIME.stream().map(Limit::flag).toList().toString();
    }
}
