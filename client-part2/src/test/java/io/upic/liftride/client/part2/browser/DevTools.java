package io.upic.liftride.client.part2.browser;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal Chrome DevTools Protocol client over java.net.http's WebSocket: {@link #call} sends a command and
 * waits for its answer; every event the browser sends is kept, in order, for the test to inspect ({@link
 * #events}). Thread-safe.
 */
public final class DevTools implements AutoCloseable {

    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final List<JsonObject> events = new CopyOnWriteArrayList<>();

    private DevTools(WebSocket socket) {
        this.socket = socket;
    }

    /** Connects to a DevTools WebSocket URL (a page target's). */
    public static DevTools connect(String webSocketUrl) throws Exception {
        Listener listener = new Listener();
        WebSocket ws = HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(webSocketUrl), listener)
                .get(10, TimeUnit.SECONDS);
        DevTools d = new DevTools(ws);
        listener.owner = d;
        return d;
    }

    /** Sends {@code method} with {@code params} and returns its result; throws on a protocol error. */
    public JsonObject call(String method, JsonObject params) throws Exception {
        int id = ids.incrementAndGet();
        JsonObject msg = new JsonObject();
        msg.addProperty("id", id);
        msg.addProperty("method", method);
        msg.add("params", params == null ? new JsonObject() : params);
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText(msg.toString(), true).get(10, TimeUnit.SECONDS);
        JsonObject reply = answer.get(30, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + " failed: " + reply.get("error"));
        }
        return reply.getAsJsonObject("result");
    }

    /** {@link #call} without parameters. */
    public JsonObject call(String method) throws Exception {
        return call(method, null);
    }

    /** Every event received so far, in order. */
    public List<JsonObject> events() {
        return List.copyOf(events);
    }

    /** The events named {@code method} received so far. */
    public List<JsonObject> events(String method) {
        return events.stream()
                .filter(e -> method.equals(e.get("method").getAsString()))
                .toList();
    }

    private void received(String text) {
        JsonObject msg = JsonParser.parseString(text).getAsJsonObject();
        if (msg.has("id")) {
            CompletableFuture<JsonObject> f = pending.remove(msg.get("id").getAsInt());
            if (f != null) {
                f.complete(msg);
            }
        } else if (msg.has("method")) {
            events.add(msg);
        }
    }

    @Override
    public void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(5, TimeUnit.SECONDS);
    }

    /** Joins the frames of each message (a screenshot arrives in many) before handing it over. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();
        private volatile DevTools owner;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                owner.received(text);
            }
            ws.request(1);
            return null;
        }
    }
}
