package io.upic.liftride.server.validation;

/**
 * Checks the Content-Type of request bodies: {@code application/json} (any case), optionally with
 * parameters, where a {@code charset} parameter must name UTF-8. A missing Content-Type is refused
 * too: the contract says bodies are application/json and the generated SDK always says so. Stateless
 * and thread-safe.
 */
public final class MediaTypes {
    private static final String JSON = "application/json";

    private MediaTypes() {}

    /** Null when {@code contentType} announces JSON we can read, else a 415 naming what was sent. */
    public static Rejection checkJson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return new Rejection(415, "Content-Type must be application/json, got none");
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        if (!mediaType.equalsIgnoreCase(JSON)) {
            return new Rejection(415, "Content-Type must be application/json, got " + Values.quote(contentType));
        }
        while (semicolon >= 0) {
            int next = contentType.indexOf(';', semicolon + 1);
            String parameter = (next < 0
                            ? contentType.substring(semicolon + 1)
                            : contentType.substring(semicolon + 1, next))
                    .trim();
            int eq = parameter.indexOf('=');
            if (eq > 0 && parameter.substring(0, eq).trim().equalsIgnoreCase("charset")) {
                String charset = unquote(parameter.substring(eq + 1).trim());
                if (!charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
                    return new Rejection(415, "Content-Type charset must be UTF-8, got " + Values.quote(charset));
                }
            }
            semicolon = next;
        }
        return null;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
