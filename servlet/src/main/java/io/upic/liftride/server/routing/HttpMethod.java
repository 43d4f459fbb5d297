package io.upic.liftride.server.routing;

/** The HTTP methods the contract uses. */
public enum HttpMethod {
    GET,
    POST;

    /** The method named exactly {@code name} (HTTP methods are case-sensitive), or null for any other. */
    public static HttpMethod parse(String name) {
        return "POST".equals(name) ? POST : "GET".equals(name) ? GET : null;
    }
}
