package io.upic.liftride.client.engine;

/**
 * The account of a set of planned requests, the one place that sums accounts ({@link #plus}), divides them by a
 * wall time ({@link #throughputPerSecond}) and checks {@code planned == successful + failed + notSent} on
 * construction. Immutable and thread-safe.
 */
public record Requests(long planned, long successful, long failed, long notSent, long retries, long attempts) {

    /** The account of nothing: the start of a fold. */
    public static final Requests NONE = new Requests(0, 0, 0, 0, 0, 0);

    public Requests {
        if (planned != successful + failed + notSent) {
            throw new IllegalStateException("planned != successful + failed + notSent: " + planned + " != " + successful
                    + " + " + failed + " + " + notSent);
        }
    }

    /** The account of {@code planned} requests of which those neither successful nor failed were not sent. */
    public static Requests of(long planned, long successful, long failed, long retries, long attempts) {
        return new Requests(planned, successful, failed, planned - successful - failed, retries, attempts);
    }

    /** Both accounts together. */
    public Requests plus(Requests o) {
        return new Requests(
                planned + o.planned,
                successful + o.successful,
                failed + o.failed,
                notSent + o.notSent,
                retries + o.retries,
                attempts + o.attempts);
    }

    /** Successful requests per second of {@code wallNanos} (0 without a wall time). */
    public double throughputPerSecond(long wallNanos) {
        return wallNanos <= 0 ? 0 : successful * 1e9 / wallNanos;
    }

    /** Requests that finished (successful or failed). */
    public long finished() {
        return successful + failed;
    }

    /** Whether every planned request got its 201: the request part of a run being "ok". */
    public boolean allSucceeded() {
        return successful == planned;
    }

    /**
     * A builder of a record that carries an account in six flat components of these names, because its JSON keeps
     * them flat (Lombok's builder of the report's summary implements it): {@link #requests} sets all six.
     *
     * @param <B> the builder
     */
    public interface Fields<B> {
        B planned(long planned);

        B successful(long successful);

        B failed(long failed);

        B notSent(long notSent);

        B retries(long retries);

        B attempts(long attempts);

        /** Sets the six components from {@code r}. */
        default B requests(Requests r) {
            planned(r.planned);
            successful(r.successful);
            failed(r.failed);
            notSent(r.notSent);
            retries(r.retries);
            return attempts(r.attempts);
        }
    }
}
