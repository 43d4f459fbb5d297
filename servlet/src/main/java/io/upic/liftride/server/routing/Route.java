package io.upic.liftride.server.routing;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** The contract's paths and allowed methods; the template names the endpoint in {@code /statistics}. */
public enum Route {
    SKIER_DAY("/skiers/{resortID}/seasons/{seasonID}/days/{dayID}/skiers/{skierID}", HttpMethod.GET, HttpMethod.POST),
    SKIER_VERTICAL("/skiers/{skierID}/vertical", HttpMethod.GET),
    RESORTS("/resorts", HttpMethod.GET),
    RESORT_SEASONS("/resorts/{resortID}/seasons", HttpMethod.GET, HttpMethod.POST),
    RESORT_DAY_SKIERS("/resorts/{resortID}/seasons/{seasonID}/day/{dayID}/skiers", HttpMethod.GET),
    STATISTICS("/statistics", HttpMethod.GET);

    private final String template;
    private final Set<HttpMethod> methods;
    private final String allowHeader;
    /** Path segments; null where the template has a {parameter}. */
    private final String[] literals;

    private final int parameterCount;

    Route(String template, HttpMethod first, HttpMethod... rest) {
        this.template = template;
        this.methods = EnumSet.of(first, rest);
        this.allowHeader = methods.stream().map(Enum::name).collect(Collectors.joining(", "));
        String[] segments = template.substring(1).split("/");
        int parameters = 0;
        for (int i = 0; i < segments.length; i++) {
            if (segments[i].startsWith("{")) {
                segments[i] = null;
                parameters++;
            }
        }
        this.literals = segments;
        this.parameterCount = parameters;
    }

    public String template() {
        return template;
    }

    public boolean allows(HttpMethod method) {
        return method != null && methods.contains(method);
    }

    public Set<HttpMethod> methods() {
        return methods;
    }

    /** The value of the {@code Allow} header of a 405, e.g. {@code GET, POST}. */
    public String allowHeader() {
        return allowHeader;
    }

    int segmentCount() {
        return literals.length;
    }

    int parameterCount() {
        return parameterCount;
    }

    /** The template's literal at {@code index}, or null where it has a parameter. */
    String literal(int index) {
        return literals[index];
    }
}
