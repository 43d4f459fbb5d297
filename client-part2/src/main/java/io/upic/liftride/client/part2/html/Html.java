package io.upic.liftride.client.part2.html;

/** Escaping for text put into HTML. Stateless and thread-safe. */
public final class Html {

    private Html() {}

    /** {@code text} safe inside an element or a double-quoted attribute. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** {@code text} escaped, with {@code `code`}, {@code **strong**} and {@code *emphasis*} as markup. */
    public static String inline(String text) {
        return escape(text)
                .replaceAll("`([^`]+)`", "<code>$1</code>")
                .replaceAll("\\*\\*([^*]+)\\*\\*", "<strong>$1</strong>")
                .replaceAll("(^|[\\s(])\\*([^*\\s][^*]*)\\*", "$1<em>$2</em>");
    }
}
