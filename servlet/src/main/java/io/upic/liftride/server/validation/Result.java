package io.upic.liftride.server.validation;

import java.util.Objects;

/**
 * Either a valid value or the {@link Rejection} saying why there is none; immutable. Validation returns
 * this instead of throwing, so refusing bad input costs no stack trace on the request path.
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

    /** The value; only call when {@link #isOk()}. */
    public T value() {
        if (rejection != null) {
            throw new IllegalStateException("no value: rejected with " + rejection);
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
}
