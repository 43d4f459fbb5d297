package io.upic.liftride.client.part2.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * uPlot (MIT licence, https://github.com/leeoniya/uPlot), the chart library every page inlines: read once from
 * its webjar on the classpath ({@code org.webjars.npm:uplot}), never fetched from a network. Thread-safe (the
 * files are read when the class loads).
 */
public final class UPlot {

    private static final String POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";

    /** The webjar's version, e.g. 1.6.30. */
    public static final String VERSION = version();

    /** uPlot's minified script (an IIFE defining {@code uPlot}). */
    public static final String SCRIPT = resource("dist/uPlot.iife.min.js");

    /** uPlot's stylesheet. */
    public static final String STYLE = resource("dist/uPlot.min.css");

    /** uPlot's licence text, kept in every page beside the script. */
    public static final String LICENSE = resource("LICENSE");

    private UPlot() {}

    private static String version() {
        try (InputStream in = UPlot.class.getResourceAsStream(POM)) {
            if (in == null) {
                throw new IllegalStateException("uPlot's webjar is not on the classpath (" + POM + ")");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String resource(String name) {
        String path = "/META-INF/resources/webjars/uplot/" + VERSION + "/" + name;
        try (InputStream in = UPlot.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing " + path + " in uPlot's webjar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
