package io.upic.liftride.client.http;

/**
 * What a transport needs to know to reach the server. Immutable and thread-safe. {@code readTimeoutMillis} bounds
 * each read and write; {@code callTimeoutMillis} bounds the whole attempt, so a server trickling bytes cannot hold
 * a worker either. Past either is a {@link AttemptCodes#TIMEOUT}.
 *
 * @param baseUrl              server base URL including the context path, no trailing slash
 * @param connectTimeoutMillis TCP connect timeout, > 0
 * @param readTimeoutMillis    read (and write) timeout per attempt, > 0
 * @param maxConnections       connections kept alive at once (the largest phase's threads plus one), > 0
 * @param callTimeoutMillis    deadline of one whole attempt, > 0 (default {@link #defaultCallTimeoutMillis})
 */
public record HttpSettings(
        String baseUrl, int connectTimeoutMillis, int readTimeoutMillis, int maxConnections, int callTimeoutMillis) {

    public HttpSettings {
        if (baseUrl == null || !(baseUrl.startsWith("http://") || baseUrl.startsWith("https://"))) {
            throw new IllegalArgumentException("baseUrl is not an http(s) URL: " + baseUrl);
        }
        if (baseUrl.endsWith("/")) {
            throw new IllegalArgumentException("baseUrl ends with '/': " + baseUrl);
        }
        if (connectTimeoutMillis < 1) {
            throw new IllegalArgumentException("connectTimeoutMillis < 1: " + connectTimeoutMillis);
        }
        if (readTimeoutMillis < 1) {
            throw new IllegalArgumentException("readTimeoutMillis < 1: " + readTimeoutMillis);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections < 1: " + maxConnections);
        }
        if (callTimeoutMillis < 1) {
            throw new IllegalArgumentException("callTimeoutMillis < 1: " + callTimeoutMillis);
        }
    }

    /** Settings whose call deadline is {@link #defaultCallTimeoutMillis(int, int)}. */
    public HttpSettings(String baseUrl, int connectTimeoutMillis, int readTimeoutMillis, int maxConnections) {
        this(
                baseUrl,
                connectTimeoutMillis,
                readTimeoutMillis,
                maxConnections,
                defaultCallTimeoutMillis(connectTimeoutMillis, readTimeoutMillis));
    }

    /** The connect timeout plus the read timeout: an honest answer is one wait of at most a read timeout. */
    public static int defaultCallTimeoutMillis(int connectTimeoutMillis, int readTimeoutMillis) {
        return (int) Math.min(Integer.MAX_VALUE, (long) connectTimeoutMillis + readTimeoutMillis);
    }
}
