package io.upic.liftride.cluster;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A TCP address, {@code HOST:PORT}, as flags take it ({@code [::1]:6379} for IPv6). Immutable.
 *
 * @param host a name or an address, without brackets
 * @param port 1..65535
 */
public record HostPort(String host, int port) {
    public HostPort {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535, got " + port);
        }
    }

    /**
     * Parses {@code HOST:PORT} with java.net.URI's authority grammar (no grammar of our own).
     *
     * @throws IllegalArgumentException "must be HOST:PORT with a port in 1..65535, got "TEXT""
     */
    public static HostPort parse(String text) {
        try {
            URI uri = new URI("tcp://" + text);
            if (uri.getHost() != null
                    && uri.getPort() >= 1
                    && uri.getPort() <= 65535
                    && uri.getRawUserInfo() == null
                    && uri.getRawPath().isEmpty()
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null) {
                return new HostPort(uri.getHost().replaceAll("^\\[(.*)]$", "$1"), uri.getPort());
            }
        } catch (URISyntaxException malformed) {
            // the message below says what is expected
        }
        throw new IllegalArgumentException("must be HOST:PORT with a port in 1..65535, got \"" + text + "\"");
    }

    /** {@code HOST:PORT}, an IPv6 host in brackets. */
    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
