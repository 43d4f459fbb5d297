package io.upic.liftride.client.http.raw;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSender;
import io.upic.liftride.client.http.RideSenderFactory;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * The {@code raw} transport: one plain-HTTP/1.1 keep-alive socket per worker, requests encoded by hand ({@link
 * RawRideSender}); no TLS, proxies, redirects or compression. A test checks it sends what the SDK sends.
 * Thread-safe; workers share only the resolved address and the constant request bytes.
 */
public final class RawRideSenderFactory implements RideSenderFactory {

    /** Path numbers, Content-Length, blank line and the largest body ({@code int} values): a generous bound. */
    static final int MAX_VARIABLE_BYTES = 4 * 11 + 24 + 11 + 4 + 3 * 11 + 40 + 19 + 128;

    private final InetSocketAddress address;
    /** {@code POST <context path>/skiers/}. */
    final byte[] postSkiers;
    /** {@code  HTTP/1.1\r\nHost: ...\r\nContent-Type: application/json\r\nContent-Length: }. */
    final byte[] postHeaders;
    /** {@code GET <context path>}. */
    final byte[] get;
    /** {@code  HTTP/1.1\r\nHost: ...\r\n\r\n}. */
    final byte[] getHeaders;

    private final HttpSettings settings;

    public RawRideSenderFactory(HttpSettings settings) {
        URI uri = URI.create(settings.baseUrl());
        if (!"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException("the raw transport speaks plain http only, got " + settings.baseUrl());
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host in " + settings.baseUrl());
        }
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        this.address = new InetSocketAddress(uri.getHost(), port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host " + uri.getHost());
        }
        String host = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + port;
        this.postSkiers = RawRideSender.ascii("POST " + path + "/skiers/");
        this.postHeaders = RawRideSender.ascii(
                " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: ");
        this.get = RawRideSender.ascii("GET " + path);
        this.getHeaders = RawRideSender.ascii(" HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        // the request is assembled in a fixed buffer: refuse a base URL that leaves no room for the ride
        int fixed = postSkiers.length + postHeaders.length + MAX_VARIABLE_BYTES;
        if (fixed > RawHttpConnection.REQUEST_BUFFER_BYTES) {
            throw new IllegalArgumentException(
                    "the raw transport's requests are at most " + RawHttpConnection.REQUEST_BUFFER_BYTES
                            + " bytes; host and path of " + settings.baseUrl() + " leave no room for the ride");
        }
        this.settings = settings;
    }

    @Override
    public RideSender create() {
        return new RawRideSender(
                new RawHttpConnection(
                        address,
                        settings.connectTimeoutMillis(),
                        settings.readTimeoutMillis(),
                        settings.callTimeoutMillis()),
                this);
    }

    @Override
    public void close() {
        // nothing shared: each sender closes its own connection
    }
}
