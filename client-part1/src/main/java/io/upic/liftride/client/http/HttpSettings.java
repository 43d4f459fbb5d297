package io.upic.liftride.client.http;

/**
 * What a transport needs to know to reach the server. Immutable and thread-safe.
 *
 * <p>Two kinds of time limit: {@code readTimeoutMillis} bounds each read and write, so a server that
 * says nothing is noticed; {@code callTimeoutMillis} bounds the whole attempt (connect, write, wait,
 * status and body), so a server that trickles a byte now and then, each within the read timeout,
 * cannot hold a worker for longer than that either. An attempt past either limit is a
 * {@link AttemptCodes#TIMEOUT} (or, once a status has arrived, ends with that status), counted and
 * retried like any failure.
 *
 * @param baseUrl              server base URL including the context path, no trailing slash
 *                             (e.g. {@code http://127.0.0.1:8080/liftride})
 * @param connectTimeoutMillis TCP connect timeout, > 0
 * @param readTimeoutMillis    read (and write) timeout per attempt, > 0
 * @param maxConnections       connections the run keeps alive at once (the largest phase's threads
 *                             plus one for control requests), > 0
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

    /**
     * The default deadline of a whole attempt: the connect timeout plus the read timeout (15 s with
     * the client's defaults of 5 s and 10 s). An honest server's answer is one wait of at most a read
     * timeout after the connection; a request and an answer of a few hundred bytes need no more.
     */
    public static int defaultCallTimeoutMillis(int connectTimeoutMillis, int readTimeoutMillis) {
        return (int) Math.min(Integer.MAX_VALUE, (long) connectTimeoutMillis + readTimeoutMillis);
    }
}
