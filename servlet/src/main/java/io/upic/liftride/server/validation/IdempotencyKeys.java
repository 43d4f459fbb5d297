package io.upic.liftride.server.validation;

import java.util.Optional;

/**
 * The optional {@code Idempotency-Key} header of the ride POST: 1 to {@value #MAX_LENGTH} visible
 * ASCII characters ({@code !} to {@code ~}), as the contract's pattern says. Stateless.
 */
public final class IdempotencyKeys {
    public static final String HEADER = "Idempotency-Key";
    public static final int MAX_LENGTH = 128;

    private IdempotencyKeys() {}

    /** The key, empty when the header is absent (Result holds no null), or a 400 naming the rule and the value. */
    public static Result<Optional<String>> parse(String header) {
        if (header == null) {
            return Result.ok(Optional.empty());
        }
        boolean ok = !header.isEmpty() && header.length() <= MAX_LENGTH;
        for (int i = 0; ok && i < header.length(); i++) {
            char c = header.charAt(i);
            ok = c >= '!' && c <= '~';
        }
        return ok
                ? Result.ok(Optional.of(header))
                : Result.badRequest(HEADER + " must be 1.." + MAX_LENGTH + " visible ASCII characters, got "
                        + Values.quote(header));
    }
}
