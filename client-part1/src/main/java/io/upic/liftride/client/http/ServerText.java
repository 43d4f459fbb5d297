package io.upic.liftride.client.http;

/**
 * Text that came from a server made safe to print: control, format and line-separator characters become visible
 * escapes, so a hostile answer cannot move the cursor or forge lines, and the text is cut at {@link #MAX_CHARS}.
 * Applied where such text enters the client. Static and thread-safe.
 */
public final class ServerText {

    /** The most characters of server text kept; the rest is replaced by a count. */
    public static final int MAX_CHARS = 200;
    /** The most exceptions of a cause chain shown (a chain may loop). */
    private static final int MAX_CAUSES = 8;

    private ServerText() {}

    /** {@code text} with its unsafe characters escaped and cut to {@link #MAX_CHARS}; null stays null. */
    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 16);
        int i = 0;
        for (; i < text.length() && i < MAX_CHARS; i++) {
            char c = text.charAt(i);
            if (unsafe(c)) {
                b.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (i < text.length()) {
            b.append("...(").append(text.length() - i).append(" more characters)");
        }
        return b.toString();
    }

    /**
     * {@code t} and its causes as {@code printStackTrace} shows them, each message {@link #clean}ed (an exception
     * from the HTTP stack may quote the answer); the stack frames are code, not server text, and kept.
     */
    public static String stackTrace(Throwable t) {
        StringBuilder b = new StringBuilder();
        Throwable e = t;
        for (int depth = 0; e != null && depth < MAX_CAUSES; depth++, e = e.getCause()) {
            b.append(e == t ? "" : "\nCaused by: ").append(e.getClass().getName());
            if (e.getMessage() != null) {
                b.append(": ").append(clean(e.getMessage()));
            }
            for (StackTraceElement frame : e.getStackTrace()) {
                b.append("\n\tat ").append(frame);
            }
        }
        return b.toString();
    }

    /**
     * Control (C0, DEL, C1), format (bidi overrides, zero-width), line and paragraph separators, and surrogates (so
     * a character outside the Basic Multilingual Plane shows as its two escapes).
     */
    private static boolean unsafe(char c) {
        int type = Character.getType(c);
        return type == Character.CONTROL
                || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE;
    }
}
