package io.upic.liftride.client.cli;

import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.transport.Transport;
import lombok.With;

/**
 * Where the load goes and how it is sent; each field's rule is its flag's in {@link RunOptions}. Immutable.
 *
 * @param baseUrl              -i as a base URL with context path; null: start the embedded server
 * @param transport            --transport
 * @param connectTimeoutMillis --connect-timeout-ms
 * @param readTimeoutMillis    --read-timeout-ms (also the write timeout)
 * @param retryPolicy          --backoff-ms, --backoff-max-ms, --give-up-after-ms; always the assignment's 6 attempts
 */
@With
public record Target(
        String baseUrl, Transport transport, int connectTimeoutMillis, int readTimeoutMillis, RetryPolicy retryPolicy) {

    /** Whether the client starts its own embedded server (no -i given). */
    public boolean embeddedServer() {
        return baseUrl == null;
    }
}
