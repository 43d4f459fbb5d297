package io.upic.liftride.client.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ramping arrival rate ({@code --ramp START,TARGET:DURATION,...}): the offered rate goes linearly to each
 * stage's target over its duration, stages in turn. Request {@code k} is due where the rate's integral reaches
 * {@code k} (closed form per stage, so nothing drifts); a stage's requests are dealt round-robin over its
 * threads. Immutable and thread-safe; docs/client.md describes the schedule.
 *
 * @param text           the flag's value as given, for output
 * @param startPerSecond the rate at the ramp's start
 * @param stages         the stages in order, at least one
 */
public record Ramp(String text, double startPerSecond, List<Stage> stages) {

    /** The rule the flag's usage and its rejections quote. */
    public static final String RULE = "START,TARGET:DURATION,... with rates in 0..1000000 req/s and durations such as"
            + " 500ms, 60s, 2m or 1h (at most " + Stage.MAX_HOURS + "h each, " + Stage.MAX_STAGES + " stages)";

    /** The plan name a ramp's {@link LoadPlan} carries. */
    public static final String PLAN_NAME = "ramp";

    private static final double MAX_RATE = 1_000_000;
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /**
     * One stage: linearly to {@code targetPerSecond} over {@code durationNanos}.
     *
     * @param targetPerSecond the rate at the stage's end, 0..1,000,000
     * @param durationNanos   the stage's length, above 0 and at most {@link #MAX_HOURS} hours
     */
    public record Stage(double targetPerSecond, long durationNanos) {

        /** The longest stage. */
        public static final int MAX_HOURS = 24;
        /** The most stages a ramp has. */
        public static final int MAX_STAGES = 100;
    }

    public Ramp {
        stages = List.copyOf(stages);
    }

    /**
     * The ramp {@code text} describes, such as {@code 500,5000:60s,5000:120s,0:30s}.
     *
     * @throws IllegalArgumentException naming the part that breaks {@link #RULE} (also a ramp that sends nothing)
     */
    public static Ramp parse(String text) {
        String[] parts = text.trim().split(",", -1);
        if (parts.length < 2 || parts.length > Stage.MAX_STAGES + 1) {
            throw new IllegalArgumentException("a start rate and 1.." + Stage.MAX_STAGES + " TARGET:DURATION");
        }
        double start = rate(parts[0]);
        List<Stage> stages = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            String[] stage = parts[i].trim().split(":", -1);
            if (stage.length != 2) {
                throw new IllegalArgumentException("stage " + i + " is not TARGET:DURATION: " + parts[i].trim());
            }
            stages.add(new Stage(rate(stage[0]), duration(stage[1], i)));
        }
        Ramp ramp = new Ramp(text.trim(), start, stages);
        if (ramp.totalRequests() == 0) {
            throw new IllegalArgumentException("every rate is 0, so the ramp sends nothing");
        }
        return ramp;
    }

    private static double rate(String text) {
        double r;
        try {
            r = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rate is not a number: " + text.trim());
        }
        if (!(r >= 0 && r <= MAX_RATE)) { // NaN fails too
            throw new IllegalArgumentException("rate not in 0..1000000: " + r);
        }
        return r;
    }

    private static long duration(String text, int stage) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("stage " + stage + " duration is not a number and a unit: " + text);
        }
        double perUnit = switch (m.group(2)) {
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            default -> 3600e9;
        };
        double nanos = Double.parseDouble(m.group(1)) * perUnit;
        if (!(nanos >= 1_000_000 && nanos <= Stage.MAX_HOURS * 3600e9)) {
            throw new IllegalArgumentException(
                    "stage " + stage + " duration not in 1ms.." + Stage.MAX_HOURS + "h: " + text.trim());
        }
        return (long) nanos;
    }

    /** The rate at the start of stage {@code s}: the previous stage's target, or the ramp's start. */
    public double fromPerSecond(int s) {
        return s == 0 ? startPerSecond : stages.get(s - 1).targetPerSecond();
    }

    /** When stage {@code s} starts, in nanoseconds from the ramp's start. */
    public long startNanos(int s) {
        return stages.subList(0, s).stream().mapToLong(Stage::durationNanos).sum();
    }

    /** When stage {@code s} ends, in nanoseconds from the ramp's start. */
    public long endNanos(int s) {
        return startNanos(s) + stages.get(s).durationNanos();
    }

    /** The whole ramp's length in nanoseconds. */
    public long durationNanos() {
        return startNanos(stages.size());
    }

    /** Index (over the whole ramp) of stage {@code s}'s first request: ceil of the rate's integral before it. */
    public long firstRequest(int s) {
        return integralBefore(s).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Requests stage {@code s} holds. */
    public long requests(int s) {
        return firstRequest(s + 1) - firstRequest(s);
    }

    /** Requests of the whole ramp. */
    public long totalRequests() {
        return firstRequest(stages.size());
    }

    /** The rate's integral before stage {@code s}, exactly: (from + to) / 2 x duration per stage, decimal rates. */
    private BigDecimal integralBefore(int s) {
        BigDecimal integral = BigDecimal.ZERO;
        for (int i = 0; i < s; i++) {
            integral = integral.add(BigDecimal.valueOf(fromPerSecond(i))
                    .add(BigDecimal.valueOf(stages.get(i).targetPerSecond()))
                    .multiply(BigDecimal.valueOf(stages.get(i).durationNanos()))
                    .divide(BigDecimal.valueOf(2_000_000_000L)));
        }
        return integral;
    }

    /** The rate offered on average over stage {@code s}: its requests over its duration. */
    public double offeredPerSecond(int s) {
        return requests(s) * 1e9 / stages.get(s).durationNanos();
    }

    /**
     * When request {@code j} (0-based, in {@code 0..requests(s) - 1}) of stage {@code s} is due, in nanoseconds
     * from the ramp's start: where the integral of the rate reaches {@code firstRequest(s) + j}.
     */
    public long dueNanos(int s, long j) {
        return times(s).dueNanos(j);
    }

    /** Stage {@code s}'s send times, its constants computed once (a worker asks for one per send). */
    public StageTimes times(int s) {
        double offset =
                BigDecimal.valueOf(firstRequest(s)).subtract(integralBefore(s)).doubleValue();
        double seconds = stages.get(s).durationNanos() / 1e9;
        double slope = (stages.get(s).targetPerSecond() - fromPerSecond(s)) / seconds;
        return new StageTimes(startNanos(s), stages.get(s).durationNanos(), offset, fromPerSecond(s), slope);
    }

    /**
     * The send times of one stage. Immutable and thread-safe.
     *
     * @param startNanos     the stage's start from the ramp's start
     * @param durationNanos  the stage's length
     * @param offset         the integral from the stage's start to its first request, in [0, 1)
     * @param fromPerSecond  the rate at the stage's start
     * @param slopePerSecond how fast the rate changes, requests per second per second
     */
    public record StageTimes(
            long startNanos, long durationNanos, double offset, double fromPerSecond, double slopePerSecond) {

        /** When the stage's request {@code j} is due, in nanoseconds from the ramp's start. */
        public long dueNanos(long j) {
            double x = offset + j;
            double r0 = fromPerSecond;
            // r0 t + slope t^2 / 2 = x, in the form that stays exact when the slope is 0 or tiny
            double t = x <= 0 ? 0 : 2 * x / (r0 + Math.sqrt(Math.max(0, r0 * r0 + 2 * slopePerSecond * x)));
            return startNanos + Math.min(durationNanos - 1, Math.round(t * 1e9));
        }
    }

    /** The rate offered {@code nanos} after the ramp's start (0 outside it). */
    public double ratePerSecondAt(long nanos) {
        long start = 0;
        for (int s = 0; s < stages.size(); s++) {
            long d = stages.get(s).durationNanos();
            if (nanos >= start && nanos < start + d) {
                double f = (double) (nanos - start) / d;
                return fromPerSecond(s) + f * (stages.get(s).targetPerSecond() - fromPerSecond(s));
            }
            start += d;
        }
        return 0;
    }

    /**
     * The ramp as a plan: one phase per stage ({@code stage1}, ...), each starting when the one before has
     * finished.
     *
     * @throws IllegalArgumentException when a thread of some stage would send more than 2^31 - 1 requests
     */
    public LoadPlan forRun(int numThreads, int numSkiers, int numRuns) {
        int threads = Math.max(1, Math.min(numThreads, numSkiers)); // a thread needs a skier of its own
        List<PlannedPhase> phases = new ArrayList<>(stages.size());
        for (int s = 0; s < stages.size(); s++) {
            long n = requests(s);
            if ((n + threads - 1) / threads > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("stage " + (s + 1) + " needs over 2^31 requests per thread: " + n);
            }
            Phase phase = new Phase(
                    String.format(Locale.ROOT, "stage%d", s + 1), 1.0, 1.0, 1, PhasePlan.DAY_MINUTES, s == 0 ? 0 : 1);
            List<ThreadAssignment> assignments = PhasePlan.assignments(
                    s, phase, threads, numSkiers, (w, size) -> (int) (n > w ? (n - 1 - w) / threads + 1 : 0));
            phases.add(new PlannedPhase(s, phase, threads, threads, s == 0 ? 0 : threads, assignments));
        }
        return new LoadPlan(PLAN_NAME, numThreads, numSkiers, numRuns, phases);
    }
}
