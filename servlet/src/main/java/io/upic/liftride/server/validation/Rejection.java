package io.upic.liftride.server.validation;

/**
 * Why a request was refused: a 4XX status and a message naming the parameter or field, the value and
 * the rule; immutable. The message is what the client sees as {@code {"message": "..."}}.
 */
public record Rejection(int status, String message) {
    public Rejection {
        if (status < 400 || status > 499) {
            throw new IllegalArgumentException("status must be a 4XX code, got " + status);
        }
        if (message == null || message.isEmpty()) {
            throw new IllegalArgumentException("message must be non-empty, got " + (message == null ? "null" : "\"\""));
        }
    }

    public static Rejection badRequest(String message) {
        return new Rejection(400, message);
    }
}
