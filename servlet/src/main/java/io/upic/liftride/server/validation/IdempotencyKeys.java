package io.upic.liftride.server.validation;

import java.util.Enumeration;
import java.util.Optional;

/**
 * The optional {@code Idempotency-Key} header of the ride POST: 1 to 128 visible ASCII characters
 * ({@code !} to {@code ~}), the contract's pattern {@code ^[!-~]{1,128}$}. A pure function from the
 * header's text; stateless and thread-safe.
 */
public final class IdempotencyKeys {
    /** The header's name, as the contract spells it. */
    public static final String HEADER = "Idempotency-Key";
    /** The longest key accepted. */
    public static final int MAX_LENGTH = 128;

    /** Repeated headers counted for the message; past this, "more than". */
    private static final int MAX_COUNTED = 100;

    /** Shared: the answer for a ride without the header, so a plain POST allocates nothing here. */
    private static final Result<Optional<String>> ABSENT = Result.ok(Optional.empty());

    private IdempotencyKeys() {}

    /** The key of the only {@code Idempotency-Key} header, or a 400 when it is repeated (neither can be trusted). */
    public static Result<Optional<String>> parseHeaders(Enumeration<String> headers) {
        if (headers == null || !headers.hasMoreElements()) {
            return ABSENT;
        }
        String first = headers.nextElement();
        if (!headers.hasMoreElements()) {
            return parse(first);
        }
        int count = 1;
        for (; headers.hasMoreElements() && count <= MAX_COUNTED; count++) {
            headers.nextElement();
        }
        return Result.badRequest(HEADER + " must be sent once, got "
                + (count > MAX_COUNTED ? "more than " + MAX_COUNTED : count) + " of them");
    }

    /**
     * The key in {@code header}: empty when there is no header (null), the key when it is 1 to 128
     * visible ASCII characters, else a 400 naming the rule and the value received.
     */
    public static Result<Optional<String>> parse(String header) {
        if (header == null) {
            return ABSENT;
        }
        int length = header.length();
        boolean valid = length >= 1 && length <= MAX_LENGTH;
        for (int i = 0; valid && i < length; i++) {
            char c = header.charAt(i);
            valid = c >= '!' && c <= '~';
        }
        return valid
                ? Result.ok(Optional.of(header))
                : Result.badRequest(
                        HEADER + " must be 1.." + MAX_LENGTH + " visible ASCII characters, got " + Values.quote(header)
                                + (length > Values.MAX_ECHOED_CHARS ? " (" + length + " characters)" : ""));
    }
}
