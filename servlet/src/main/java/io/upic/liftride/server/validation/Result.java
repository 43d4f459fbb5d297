package io.upic.liftride.server.validation;

import java.util.Objects;

/**
 * Either a valid value or the {@link Rejection} saying why there is none; immutable. {@link #value()} of a
 * rejection throws {@link Rejected}, which carries no stack trace and which the servlets answer with its 4XX.
 */
public final class Result<T> {
    private final T value;
    private final Rejection rejection;

    private Result(T value, Rejection rejection) {
        this.value = value;
        this.rejection = rejection;
    }

    public static <T> Result<T> ok(T value) {
        return new Result<>(Objects.requireNonNull(value, "value"), null);
    }

    public static <T> Result<T> rejected(Rejection rejection) {
        return new Result<>(null, Objects.requireNonNull(rejection, "rejection"));
    }

    public static <T> Result<T> badRequest(String message) {
        return rejected(Rejection.badRequest(message));
    }

    public boolean isOk() {
        return rejection == null;
    }

    /** The value, or {@link Rejected} when there is none. */
    public T value() {
        if (rejection != null) {
            throw new Rejected(rejection);
        }
        return value;
    }

    /** The rejection; only call when not {@link #isOk()}. */
    public Rejection rejection() {
        if (rejection == null) {
            throw new IllegalStateException("not rejected: value is " + value);
        }
        return rejection;
    }

    @Override
    public String toString() {
        return rejection == null ? "Ok[" + value + "]" : rejection.toString();
    }

    /** A request refused as {@link #rejection()} says; without a stack trace, as refusing input is routine. */
    public static final class Rejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Rejection rejection;

        Rejected(Rejection rejection) {
            super(rejection.message(), null, false, false);
            this.rejection = rejection;
        }

        public Rejection rejection() {
            return rejection;
        }
    }
}
