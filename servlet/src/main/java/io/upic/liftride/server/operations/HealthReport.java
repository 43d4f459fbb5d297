package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A health answer: named checks, each up or down with a message, UP as a whole only when every check
 * is. Not thread-safe: one per request.
 */
final class HealthReport {
    private final Map<String, Boolean> up = new LinkedHashMap<>();
    private final Map<String, String> messages = new LinkedHashMap<>();

    /** {@code /health/live}: the JVM answers this request, which is all it says. */
    static HealthReport live() {
        HealthReport report = new HealthReport();
        report.check("jvm", true, "answering");
        return report;
    }

    /**
     * The backlog at which the server is no longer ready: half the queue's capacity, so that a load
     * balancer steers away before rides are refused for a full queue.
     */
    static int backlogLimit(int capacity) {
        return capacity == Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(1, capacity / 2);
    }

    HealthReport check(String name, boolean isUp, String message) {
        up.put(name, isUp);
        messages.put(name, message);
        return this;
    }

    boolean up() {
        return !up.containsValue(false);
    }

    /** {@code {"status": "UP", "checks": {"store": {"status": "UP", "message": "..."}, ...}}}. */
    String toJson() {
        return JsonResponses.toJson(json -> {
            json.beginObject().name("status").value(status(up())).name("checks").beginObject();
            for (Map.Entry<String, Boolean> check : up.entrySet()) {
                json.name(check.getKey())
                        .beginObject()
                        .name("status")
                        .value(status(check.getValue()))
                        .name("message")
                        .value(messages.get(check.getKey()))
                        .endObject();
            }
            json.endObject().endObject();
        });
    }

    /** {@code {"status": "UP"}}: the verdict without the checks, for the API port. */
    String statusJson() {
        return JsonResponses.toJson(
                json -> json.beginObject().name("status").value(status(up())).endObject());
    }

    private static String status(boolean isUp) {
        return isUp ? "UP" : "DOWN";
    }
}
