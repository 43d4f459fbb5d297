package io.upic.liftride.client.live;

import java.net.InetSocketAddress;

/**
 * Where {@code --metrics-port} listens: a port on every address, or on one host. Immutable.
 *
 * @param host the address to listen on, or null for every address
 * @param port 0..65535; 0 takes a free port
 */
public record MetricsAddress(String host, int port) {

    /** What {@code --metrics-port} accepts, for its usage and its rejections. */
    public static final String RULE = "a port 0..65535 (0 = a free one) or HOST:PORT";

    public MetricsAddress {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port not in 0..65535: " + port);
        }
        if (host != null && host.isBlank()) {
            throw new IllegalArgumentException("empty host");
        }
    }

    /**
     * The address in {@code text}: {@code 9464}, or {@code 127.0.0.1:0}.
     *
     * @throws IllegalArgumentException when the text is anything else
     */
    public static MetricsAddress parse(String text) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        String port = t.substring(colon + 1);
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        return new MetricsAddress(colon < 0 ? null : t.substring(0, colon), Integer.parseInt(port));
    }

    /** As {@code --metrics-port} takes it: {@code PORT} or {@code HOST:PORT}. */
    @Override
    public String toString() {
        return host == null ? Integer.toString(port) : host + ":" + port;
    }

    InetSocketAddress socketAddress() {
        return host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }
}
