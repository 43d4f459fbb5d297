package io.upic.liftride.client.cli;

import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.OpenModel;
import io.upic.liftride.client.plan.ThreadAssignment;
import io.upic.liftride.client.threshold.Threshold;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --max-duration}: how long one invocation may take before the client stops sending, reconciles, writes
 * its outputs and exits {@code ExitCodes.DEADLINE}. Without the flag: {@link #defaultFor}, an hour plus {@link
 * #DEFAULT_MILLIS_PER_REQUEST} ms per planned request (or twice the open model's schedule). Static and thread-safe.
 */
public final class MaxDuration {

    /** No limit ({@code --max-duration 0}). */
    public static final Duration NONE = Duration.ZERO;
    /** What the default allows every planned request: 100 requests per second, a hundredth of a loopback run. */
    public static final long DEFAULT_MILLIS_PER_REQUEST = 10;
    /** What the default allows on top: the baseline, the reconciliation, a slow start. */
    public static final Duration DEFAULT_SLACK = Duration.ofHours(1);
    /** The longest limit accepted: 30 days. */
    public static final Duration MAX = Duration.ofDays(30);

    static final String RULE =
            "a duration such as 90s, 10m or 1.5h (units ns, us, µs, ms, s, m, h), at most 720h," + " or 0 for none";

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)");

    private MaxDuration() {}

    /**
     * The flag's value: a number and a unit, or 0 for {@link #NONE}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Duration parse(String text) {
        String t = text.trim();
        if (t.equals("0")) {
            return NONE;
        }
        Matcher m = DURATION.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("a number and a unit");
        }
        double nanos = Double.parseDouble(m.group(1)) * Threshold.nanosPer(m.group(2));
        if (nanos > MAX.toNanos()) {
            throw new IllegalArgumentException("longer than 720h");
        }
        if (nanos < 1) {
            throw new IllegalArgumentException("0 is written 0");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** The first config's {@code --max-duration}, else the default. */
    public static Duration of(List<RunConfig> configs) {
        Duration given = configs.get(0).workload().maxDuration();
        return given != null ? given : defaultFor(configs);
    }

    /** The default limit of an invocation of {@code configs}: see the class comment. */
    public static Duration defaultFor(List<RunConfig> configs) {
        long millis = 2L * configs.get(0).checks().baselineRequests() * DEFAULT_MILLIS_PER_REQUEST;
        for (RunConfig c : configs) {
            Workload w = c.workload();
            LoadPlan plan = w.loadPlan();
            long run = plan.totalRequests() * DEFAULT_MILLIS_PER_REQUEST;
            OpenModel open = w.openModel();
            millis += w.ramp() != null
                    ? Math.max(run, 2 * w.ramp().durationNanos() / 1_000_000)
                    : open == null ? run : Math.max(run, 2 * scheduleMillis(plan, open));
        }
        return DEFAULT_SLACK.plusMillis(millis);
    }

    /** An upper bound on the open model's schedule: each phase as long as its busiest thread's, one after another. */
    private static long scheduleMillis(LoadPlan plan, OpenModel open) {
        return plan.phases().stream()
                .mapToLong(p -> p.assignments().stream()
                                .mapToLong(ThreadAssignment::requests)
                                .max()
                                .orElse(0)
                        * open.intervalNanos()
                        / 1_000_000)
                .sum();
    }

    /** {@code d} as a person reads it: {@code 1h37m}, {@code 10m00s}, {@code 2.5s}. */
    public static String format(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600) {
            return String.format(Locale.US, "%dh%02dm", s / 3600, s % 3600 / 60);
        }
        if (s >= 60) {
            return String.format(Locale.US, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.US, "%.1fs", d.toNanos() / 1e9);
    }
}
