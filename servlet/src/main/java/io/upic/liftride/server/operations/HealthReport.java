package io.upic.liftride.server.operations;

import io.upic.liftride.server.http.JsonResponses;
import java.util.LinkedHashMap;
import java.util.Map;

/** A health answer of named checks, UP only when every check is. Not thread-safe. */
final class HealthReport {
    private final Map<String, Object> checks = new LinkedHashMap<>();
    private boolean up = true;

    /** {@code /health/live}: the JVM answers this request, which is all it says. */
    static HealthReport live() {
        return new HealthReport().check("jvm", true, "answering");
    }

    /** Half the queue: not ready from there, so a load balancer steers away before the queue is full. */
    static int backlogLimit(int capacity) {
        return capacity == Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(1, capacity / 2);
    }

    HealthReport check(String name, boolean isUp, String message) {
        checks.put(name, JsonResponses.object("status", status(isUp), "message", message));
        up &= isUp;
        return this;
    }

    boolean up() {
        return up;
    }

    /** {@code {"status": "UP", "checks": {"store": {"status": "UP", "message": "..."}, ...}}}. */
    String toJson() {
        return JsonResponses.toJson(JsonResponses.object("status", status(up), "checks", checks));
    }

    /** {@code {"status": "UP"}}: the verdict without the checks, for the API port. */
    String statusJson() {
        return JsonResponses.toJson(Map.of("status", status(up)));
    }

    private static String status(boolean isUp) {
        return isUp ? "UP" : "DOWN";
    }
}
