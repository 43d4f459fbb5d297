package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import java.util.LinkedHashMap;
import java.util.Map;

/** A health answer of named checks, UP only when every check is. Not thread-safe. */
final class HealthReport {
    private final Map<String, Boolean> up = new LinkedHashMap<>();
    private final Map<String, String> messages = new LinkedHashMap<>();

    /** {@code /health/live}: the JVM answers this request, which is all it says. */
    static HealthReport live() {
        HealthReport report = new HealthReport();
        report.check("jvm", true, "answering");
        return report;
    }

    /** Half the queue: not ready from there, so a load balancer steers away before the queue is full. */
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
