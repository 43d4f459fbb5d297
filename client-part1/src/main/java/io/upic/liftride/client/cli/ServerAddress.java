package io.upic.liftride.client.cli;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Turns the {@code -i} value into a base URL: {@code host} or {@code host:port} (port 8080, path {@code
 * /liftride}), or a full URL used as given. Static, thread-safe.
 */
public final class ServerAddress {

    /** Port used when {@code -i} names only a host. */
    public static final int DEFAULT_PORT = 8080;
    /** The WAR's context path, used when {@code -i} is a host or host:port. */
    public static final String CONTEXT_PATH = "/liftride";

    private ServerAddress() {}

    /**
     * The base URL for {@code value}.
     *
     * @throws IllegalArgumentException whose message says what is wrong (without the flag name)
     */
    public static String toBaseUrl(String value) {
        String v = value == null ? "" : value.trim();
        if (v.isEmpty()) {
            throw new IllegalArgumentException("is empty");
        }
        if (v.contains("://")) {
            return fromUrl(v);
        }
        String host;
        int port = DEFAULT_PORT;
        if (v.startsWith("[")) { // [v6] or [v6]:port
            int close = v.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("has an unclosed '['");
            }
            host = v.substring(0, close + 1);
            String rest = v.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("has text after ']' that is not :port");
                }
                port = port(rest.substring(1));
            }
        } else {
            int colon = v.indexOf(':');
            if (colon != v.lastIndexOf(':')) {
                throw new IllegalArgumentException("has more than one ':' (IPv6 goes in [brackets])");
            }
            host = colon < 0 ? v : v.substring(0, colon);
            if (colon >= 0) {
                port = port(v.substring(colon + 1));
            }
        }
        if (host.isEmpty()
                || host.chars()
                        .anyMatch(c -> c == '/' || c == '?' || c == '#' || c == '@' || Character.isWhitespace(c))) {
            throw new IllegalArgumentException("has no valid host");
        }
        return "http://" + host + ":" + port + CONTEXT_PATH;
    }

    private static String fromUrl(String v) {
        URI uri;
        try {
            uri = new URI(v);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("is not a valid URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("must use http or https");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("has no host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must not have a query or fragment");
        }
        return v.replaceAll("/+$", "");
    }

    private static int port(String text) {
        if (text.matches("\\d{1,5}") && Integer.parseInt(text) >= 1 && Integer.parseInt(text) <= 65535) {
            return Integer.parseInt(text);
        }
        throw new IllegalArgumentException("port must be an integer in 1..65535, got " + text);
    }
}
