package io.upic.liftride.client.http;

/**
 * What a transport needs to know to reach the server. Immutable and thread-safe.
 *
 * @param baseUrl              server base URL including the context path, no trailing slash
 *                             (e.g. {@code http://127.0.0.1:8080/liftride})
 * @param connectTimeoutMillis TCP connect timeout, > 0
 * @param readTimeoutMillis    read (and write) timeout per attempt, > 0
 * @param maxConnections       connections the run keeps alive at once (the largest phase's threads
 *                             plus one for control requests), > 0
 */
public record HttpSettings(String baseUrl, int connectTimeoutMillis, int readTimeoutMillis, int maxConnections) {

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
    }
}
