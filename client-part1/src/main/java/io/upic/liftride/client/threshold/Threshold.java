package io.upic.liftride.client.threshold;

import io.upic.liftride.client.http.Operation;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pass/fail condition on one {@link Metric} of a finished run, as {@code --threshold} writes it ({@code
 * p99<50ms}, {@code failed==0}, {@code throughput>5000}, {@code p99{op=getSkierDayVertical}<20ms}); a latency
 * bound needs a unit. Immutable and thread-safe.
 *
 * @param expr   the expression as given, trimmed
 * @param metric what is bounded
 * @param operation the operation whose requests alone are measured; null for the whole run
 * @param op     the operator
 * @param bound  the bound in the metric's unit: nanoseconds for a latency, requests, requests per second
 */
public record Threshold(String expr, Metric metric, Operation operation, Comparison op, double bound) {

    /** How the usage and the one-line errors describe an expression. */
    public static final String RULE = "METRIC OP VALUE such as p99<50ms, mean<10ms, failed==0 or throughput>5000";

    private static final String OP_SELECTOR = "{op=";
    /** Metric, the first operator (two-character ones tried first) and value. */
    private static final Pattern EXPRESSION = Pattern.compile("(.*?)(<=|>=|==|<|>)(.*)", Pattern.DOTALL);

    private static final Pattern NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?");
    private static final Pattern LATENCY = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s)");

    /**
     * Parses one expression.
     *
     * @throws IllegalArgumentException naming what is wrong ({@code unknown metric p99x}, {@code a latency bound
     *     needs a unit: ns, us, µs, ms or s}, ...)
     */
    public static Threshold parse(String text) {
        String expr = text.trim();
        Matcher m = EXPRESSION.matcher(expr);
        if (!m.matches()) {
            throw new IllegalArgumentException("no operator: use <, <=, >, >= or ==");
        }
        Comparison op = Arrays.stream(Comparison.values())
                .filter(c -> c.symbol().equals(m.group(2)))
                .findFirst()
                .orElseThrow();
        String name = m.group(1).trim();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric before the operator; metrics: " + Metric.NAMES);
        }
        Operation operation = null;
        int brace = name.indexOf('{');
        if (brace >= 0) {
            operation = operation(name.substring(brace));
            name = name.substring(0, brace).trim();
        }
        Metric metric = Metric.parse(name);
        return new Threshold(
                expr, metric, operation, op, bound(metric, m.group(3).trim()));
    }

    /** The operation a {@code {op=operationId}} selector names. */
    private static Operation operation(String selector) {
        if (!selector.startsWith(OP_SELECTOR) || !selector.endsWith("}")) {
            throw new IllegalArgumentException("a selector is {op=operationId}, not " + selector);
        }
        return Operation.of(
                selector.substring(OP_SELECTOR.length(), selector.length() - 1).trim());
    }

    private static double bound(Metric metric, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException("no value after the operator");
        }
        if (metric.latency()) {
            Matcher m = LATENCY.matcher(value);
            if (!m.matches()) {
                throw new IllegalArgumentException(
                        NUMBER.matcher(value).matches()
                                ? "a latency bound needs a unit: ns, us, µs, ms or s"
                                : "a latency bound is a number and a unit (ns, us, µs, ms, s), not " + value);
            }
            return Double.parseDouble(m.group(1)) * nanosPer(m.group(2));
        }
        if (!NUMBER.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    metric.label() + " is bounded by a plain number (" + unit(metric) + "), not " + value);
        }
        if (metric.kind() == Metric.Kind.FAILED && value.contains(".")) {
            throw new IllegalArgumentException("failed counts requests: a whole number, not " + value);
        }
        return Double.parseDouble(value);
    }

    /** Nanoseconds in one {@code unit}: ns, us, µs, ms, s, m or h. */
    public static double nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> throw new IllegalArgumentException("unit " + unit);
        };
    }

    /** The unit {@link #displayValue} reports {@code metric} in: ms, requests or req/s. */
    public static String unit(Metric metric) {
        return metric.latency() ? "ms" : metric.kind() == Metric.Kind.FAILED ? "requests" : "req/s";
    }

    /** A measured value in the metric's native unit (nanoseconds for a latency) converted to {@link #unit}. */
    public static double displayValue(Metric metric, double value) {
        return metric.latency() ? value / 1e6 : value;
    }

    /** Whether {@code measured} (in the metric's native unit) meets this threshold; never for NaN. */
    public boolean holds(double measured) {
        return op.holds(measured, bound);
    }
}
