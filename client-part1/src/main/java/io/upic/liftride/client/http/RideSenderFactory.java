package io.upic.liftride.client.http;

/**
 * Creates one {@link RideSender} per worker and owns what they share (connection pool, client).
 * {@link #create()} is thread-safe; {@link #close()} is called once, after every sender is closed.
 */
public interface RideSenderFactory extends AutoCloseable {

    /** A new sender for one worker thread. */
    RideSender create();

    /** Releases shared resources (idle connections); never throws. */
    @Override
    void close();
}
