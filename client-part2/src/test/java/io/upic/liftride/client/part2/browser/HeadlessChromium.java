package io.upic.liftride.client.part2.browser;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.Poll;
import io.upic.liftride.cluster.Programs;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

/**
 * Debian's headless Chromium, started for a test (installed with apt-get when missing, through the test kit's
 * {@link Programs}; a test fails saying why if it cannot be), driven over the Chrome DevTools Protocol: open a
 * page, evaluate JavaScript, take screenshots, read what the page logged and requested. The browser listens on
 * a loopback port of its choice ({@code --remote-debugging-port=0}, read back from its DevToolsActivePort file)
 * and has its own throw-away profile. Stopped by {@link #close}. Not thread-safe.
 */
public final class HeadlessChromium implements AutoCloseable {

    private final Process process;
    private final Path profile;
    private final DevTools page;

    private HeadlessChromium(Process process, Path profile, DevTools page) {
        this.process = process;
        this.profile = profile;
        this.page = page;
    }

    /** Starts Chromium with a window of {@code width} x {@code height} and connects to its first page. */
    public static HeadlessChromium start(int width, int height) throws Exception {
        String chromium = Programs.require("chromium", "chromium");
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(
                chromium,
                "--headless=new",
                "--no-sandbox", // needed as root; the page is our own file
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=" + width + "," + height,
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                "about:blank"));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            Poll.until("Chromium's DevToolsActivePort", Duration.ofSeconds(30), () -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException("chromium exited with " + p.exitValue() + ": " + log(profile));
                }
                return Files.isRegularFile(portFile) && lines(portFile) >= 2;
            });
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
            DevTools page = DevTools.connect(pageSocket(port));
            return new HeadlessChromium(p, profile, page);
        } catch (Exception | Error e) {
            p.destroyForcibly();
            throw e;
        }
    }

    private static long lines(Path f) {
        try {
            return Files.readAllLines(f).size();
        } catch (Exception e) {
            return 0;
        }
    }

    private static String log(Path profile) {
        try {
            return Files.readString(profile.resolve("chromium.log"));
        } catch (Exception e) {
            return "(no log)";
        }
    }

    /** The WebSocket URL of the browser's first page target. */
    private static String pageSocket(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        for (JsonElement t : JsonParser.parseString(r.body()).getAsJsonArray()) {
            JsonObject o = t.getAsJsonObject();
            if ("page".equals(o.get("type").getAsString())) {
                return o.get("webSocketDebuggerUrl").getAsString();
            }
        }
        throw new IllegalStateException("no page target in " + r.body());
    }

    /** The page's DevTools connection, for any other command. */
    public DevTools devTools() {
        return page;
    }

    /**
     * Turns on what a test watches (console, log, exceptions, network requests) and cuts the network off, before
     * {@link #open}: any request to a network then fails, and is recorded.
     */
    public void offline() throws Exception {
        page.call("Runtime.enable");
        page.call("Log.enable");
        page.call("Page.enable");
        page.call("Network.enable");
        JsonObject off = new JsonObject();
        off.addProperty("offline", true);
        off.addProperty("latency", 0);
        off.addProperty("downloadThroughput", -1);
        off.addProperty("uploadThroughput", -1);
        page.call("Network.emulateNetworkConditions", off);
    }

    /** Opens {@code file} and waits for its load event. */
    public void open(Path file) throws Exception {
        int loadsBefore = page.events("Page.loadEventFired").size();
        JsonObject p = new JsonObject();
        p.addProperty("url", file.toUri().toString());
        page.call("Page.navigate", p);
        Poll.until(
                "the page's load event",
                Duration.ofSeconds(20),
                () -> page.events("Page.loadEventFired").size() > loadsBefore);
    }

    /** Evaluates {@code expression} in the page and returns its value (JSON-serializable values only). */
    public JsonElement eval(String expression) throws Exception {
        JsonObject p = new JsonObject();
        p.addProperty("expression", expression);
        p.addProperty("returnByValue", true);
        p.addProperty("awaitPromise", true);
        JsonObject r = page.call("Runtime.evaluate", p);
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException(expression + " threw: " + r.get("exceptionDetails"));
        }
        JsonObject result = r.getAsJsonObject("result");
        return result.has("value") ? result.get("value") : null;
    }

    /** Every URL the page requested (from Network.requestWillBeSent). */
    public List<String> requestedUrls() {
        List<String> urls = new ArrayList<>();
        for (JsonObject e : page.events("Network.requestWillBeSent")) {
            urls.add(e.getAsJsonObject("params")
                    .getAsJsonObject("request")
                    .get("url")
                    .getAsString());
        }
        return urls;
    }

    /** Console errors and warnings, uncaught exceptions and error log entries, one line each. */
    public List<String> errors() {
        List<String> errors = new ArrayList<>();
        for (JsonObject e : page.events()) {
            String method = e.get("method").getAsString();
            JsonObject params = e.getAsJsonObject("params");
            switch (method) {
                case "Runtime.exceptionThrown" -> errors.add("exception: " + params.get("exceptionDetails"));
                case "Runtime.consoleAPICalled" -> {
                    String type = params.get("type").getAsString();
                    if (type.equals("error") || type.equals("assert") || type.equals("warning")) {
                        errors.add("console." + type + ": " + params.get("args"));
                    }
                }
                case "Log.entryAdded" -> {
                    JsonObject entry = params.getAsJsonObject("entry");
                    String level = entry.get("level").getAsString();
                    if (level.equals("error") || level.equals("warning")) {
                        errors.add("log " + level + ": " + entry.get("text").getAsString());
                    }
                }
                default -> {}
            }
        }
        return errors;
    }

    /** A screenshot of the page's area at (x, y) of w x h CSS pixels (scrolled to if need be). */
    public BufferedImage screenshot(double x, double y, double w, double h) throws Exception {
        JsonObject clip = new JsonObject();
        clip.addProperty("x", x);
        clip.addProperty("y", y);
        clip.addProperty("width", w);
        clip.addProperty("height", h);
        clip.addProperty("scale", 1);
        JsonObject p = new JsonObject();
        p.addProperty("format", "png");
        p.add("clip", clip);
        p.addProperty("captureBeyondViewport", true);
        String data = page.call("Page.captureScreenshot", p).get("data").getAsString();
        return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(data)));
    }

    /** A screenshot of the whole page, {@code width} CSS pixels wide, written as PNG to {@code file}. */
    public void screenshotPage(Path file, int width) throws Exception {
        double height = eval("document.documentElement.scrollHeight").getAsDouble();
        BufferedImage img = screenshot(0, 0, width, height);
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(img, "png", file.toFile());
    }

    /** The bounding boxes (x, y, width, height in page coordinates) of the elements {@code selector} matches. */
    public List<double[]> boxes(String selector) throws Exception {
        JsonArray a = eval("[...document.querySelectorAll(" + JsonParser.parseString("\"" + selector + "\"")
                        + ")].map(e => { const r = e.getBoundingClientRect();"
                        + " return [r.x + window.scrollX, r.y + window.scrollY, r.width, r.height]; })")
                .getAsJsonArray();
        List<double[]> boxes = new ArrayList<>();
        for (JsonElement e : a) {
            JsonArray b = e.getAsJsonArray();
            boxes.add(new double[] {
                b.get(0).getAsDouble(),
                b.get(1).getAsDouble(),
                b.get(2).getAsDouble(),
                b.get(3).getAsDouble()
            });
        }
        return boxes;
    }

    @Override
    public void close() throws Exception {
        try {
            page.close();
        } finally {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (Exception e) {
            // a profile left in the temp folder harms nobody
        }
    }

    /** Pixels of {@code img} whose colour is saturated (a drawn series, not white, grey grid or black text). */
    public static int colouredPixels(BufferedImage img) {
        int n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    n++;
                }
            }
        }
        return n;
    }
}
