package io.upic.liftride.client.engine;

import io.upic.liftride.client.http.Operation;
import java.util.EnumMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

/**
 * What share of a run's requests each operation gets ({@code --mix}), and what share of its GETs ask for a resort
 * no run writes ({@code --mix-unknown}, answered 404). Drawn from each worker's own random stream. Immutable and
 * thread-safe.
 */
public final class Mix {

    /** What {@link #parse} accepts, as messages say it. */
    public static final String RULE = "operationId=weight,... with weights in 1..1000000 and writeNewLiftRide in it";

    /** The resort the unknown GETs ask for (or the one below it, if the run writes to this one). */
    static final int UNKNOWN_RESORT = Integer.MAX_VALUE;

    private static final int MAX_WEIGHT = 1_000_000;

    private final Map<Operation, Integer> weights;
    private final int unknownPercent;
    private final Operation[] operations;
    /** cumulative[i] is the sum of the weights of operations[0..i]. */
    private final int[] cumulative;

    /**
     * @param weights        each operation's weight, at least 1; the ride POST must be one of them (the GETs read
     *                       what it stored)
     * @param unknownPercent the percentage of GETs asking for a resort that does not exist, 0..100
     */
    public Mix(Map<Operation, Integer> weights, int unknownPercent) {
        if (!weights.containsKey(Operation.WRITE_NEW_LIFT_RIDE)) {
            throw new IllegalArgumentException("no " + Operation.WRITE_NEW_LIFT_RIDE.operationId()
                    + " in the mix: its GETs read what the run writes");
        }
        if (unknownPercent < 0 || unknownPercent > 100) {
            throw new IllegalArgumentException("unknown share not in 0..100%: " + unknownPercent);
        }
        this.weights = new EnumMap<>(weights);
        this.unknownPercent = unknownPercent;
        this.operations = this.weights.keySet().toArray(Operation[]::new);
        this.cumulative = new int[operations.length];
        int sum = 0;
        for (int i = 0; i < operations.length; i++) {
            int w = this.weights.get(operations[i]);
            if (w < 1 || w > MAX_WEIGHT) {
                throw new IllegalArgumentException(
                        "weight of " + operations[i].operationId() + " not in 1.." + MAX_WEIGHT + ": " + w);
            }
            sum += w;
            cumulative[i] = sum;
        }
    }

    /**
     * The mix {@code text} names, with no unknown share: {@code writeNewLiftRide=90,getSkierDayVertical=10}.
     *
     * @throws IllegalArgumentException naming the part that is wrong
     */
    public static Mix parse(String text) {
        Map<Operation, Integer> weights = new EnumMap<>(Operation.class);
        for (String part : text.split(",", -1)) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("no =weight in " + part.strip() + "; expected " + RULE);
            }
            Operation op = Operation.of(part.substring(0, eq).strip());
            int weight;
            try {
                weight = Integer.parseInt(part.substring(eq + 1).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("weight of " + op.operationId() + " is no integer: "
                        + part.substring(eq + 1).strip());
            }
            if (weights.put(op, weight) != null) {
                throw new IllegalArgumentException(op.operationId() + " named twice");
            }
        }
        return new Mix(weights, 0);
    }

    /** This mix with {@code percent} of its GETs asking for unknown data. */
    public Mix withUnknownPercent(int percent) {
        return new Mix(weights, percent);
    }

    /** Each operation's weight, in declaration order. */
    public Map<Operation, Integer> weights() {
        return java.util.Collections.unmodifiableMap(weights);
    }

    public int unknownPercent() {
        return unknownPercent;
    }

    /** Whether {@code op} is in the mix. */
    public boolean contains(Operation op) {
        return weights.containsKey(op);
    }

    /** An operation drawn by weight from {@code random}. */
    Operation pick(RandomGenerator random) {
        int r = random.nextInt(cumulative[cumulative.length - 1]);
        int i = 0;
        while (r >= cumulative[i]) {
            i++;
        }
        return operations[i];
    }

    /** Whether the next GET asks for unknown data, drawn from {@code random}; draws nothing at a share of 0. */
    boolean unknown(RandomGenerator random) {
        return unknownPercent > 0 && random.nextInt(100) < unknownPercent;
    }

    /** A resort ID that the run with {@code resortId} never writes. */
    static int unknownResort(int resortId) {
        return resortId == UNKNOWN_RESORT ? UNKNOWN_RESORT - 1 : UNKNOWN_RESORT;
    }

    /** As {@code --mix} writes it, plus the unknown share if any. */
    @Override
    public String toString() {
        String ops = weights.entrySet().stream()
                .map(e -> e.getKey().operationId() + "=" + e.getValue())
                .collect(Collectors.joining(","));
        return unknownPercent == 0 ? ops : ops + " (" + unknownPercent + "% unknown)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mix m && m.weights.equals(weights) && m.unknownPercent == unknownPercent;
    }

    @Override
    public int hashCode() {
        return weights.hashCode() * 31 + unknownPercent;
    }
}
