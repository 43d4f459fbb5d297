package io.upic.liftride.server.validation;

/**
 * How rejected values are echoed in messages: quoted, escaped and shortened so that a hostile value can
 * neither flood the answer nor smuggle control characters into it. Stateless and thread-safe.
 */
public final class Values {
    /** Longer values are cut to this many characters and marked with "...". */
    public static final int MAX_ECHOED_CHARS = 40;

    private Values() {}

    /** {@code abc} becomes {@code "abc"}; quotes, backslashes and control characters are escaped. */
    public static String quote(String raw) {
        return '"' + literal(raw) + '"';
    }

    /** A JSON literal as the client wrote it (e.g. a number), escaped and shortened like {@link #quote}. */
    public static String literal(String raw) {
        StringBuilder out = new StringBuilder(Math.min(raw.length(), MAX_ECHOED_CHARS) + 8);
        appendEscaped(out, raw);
        return out.toString();
    }

    private static void appendEscaped(StringBuilder out, String raw) {
        int end = Math.min(raw.length(), MAX_ECHOED_CHARS);
        if (end < raw.length() && Character.isHighSurrogate(raw.charAt(end - 1))) {
            end--; // never cut a surrogate pair in half
        }
        for (int i = 0; i < end; i++) {
            char c = raw.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || isLoneSurrogate(raw, i, end)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
                if (Character.isHighSurrogate(c)) {
                    out.append(raw.charAt(++i)); // its low half, checked by isLoneSurrogate
                }
            }
        }
        if (end < raw.length()) {
            out.append("...");
        }
    }

    private static boolean isLoneSurrogate(String s, int i, int end) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= end || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return Character.isLowSurrogate(c); // a low half whose high half was not just consumed
    }
}
