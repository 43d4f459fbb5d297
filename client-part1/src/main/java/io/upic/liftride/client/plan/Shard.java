package io.upic.liftride.client.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shard {@code index} of {@code count} ({@code --shard K/N}, or {@code auto/N} from a Kubernetes Indexed Job's
 * completion index): the plan's threads, numbered across phases in start order, are dealt round-robin (thread
 * j to shard {@code (j mod N) + 1}) with their ranges unchanged, so the N shards together send exactly the
 * plan. Triggers count only the shard's own threads. Immutable and thread-safe; docs/client.md has the rules.
 *
 * @param index K, 1-based
 * @param count N
 */
public record Shard(int index, int count) {

    /** The most shards a plan can be split into (as many as the most threads of one phase, -t's maximum). */
    public static final int MAX_COUNT = 1024;

    /** The whole plan: shard 1 of 1 (no --shard). */
    public static final Shard WHOLE = new Shard(1, 1);

    /** What an Indexed Job sets in each of its pods: the pod's completion index, 0 to N - 1. */
    public static final String INDEX_VARIABLE = "JOB_COMPLETION_INDEX";

    private static final Pattern FORM = Pattern.compile("(auto|\\d{1,4})/(\\d{1,4})");

    public Shard {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("shard count not in 1.." + MAX_COUNT + ": " + count);
        }
        if (index < 1 || index > count) {
            throw new IllegalArgumentException("shard index not in 1.." + count + ": " + index);
        }
    }

    /** {@link #parse(String, Function)} with this process's environment. */
    public static Shard parse(String text) {
        return parse(text, System::getenv);
    }

    /**
     * The shard in {@code text}: {@code K/N} such as {@code 2/4} (ASCII digits, one slash, 1 <= K <= N <= 1024), or
     * {@code auto/N}, where K is one more than {@value #INDEX_VARIABLE} in {@code env} (an integer in 0..N-1).
     *
     * @throws IllegalArgumentException when the text is anything else, or the variable is unset or out of range
     *     (the message names it)
     */
    public static Shard parse(String text, Function<String, String> env) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not K/N");
        }
        int n = Integer.parseInt(m.group(2));
        if (n < 1 || n > MAX_COUNT) {
            throw new IllegalArgumentException("N not in 1.." + MAX_COUNT);
        }
        if (m.group(1).equals("auto")) {
            String rule = "auto/N takes K - 1 from " + INDEX_VARIABLE + ", an integer in 0.." + (n - 1);
            String index = env.apply(INDEX_VARIABLE);
            if (index == null || !index.trim().matches("\\d{1,4}") || Integer.parseInt(index.trim()) >= n) {
                throw new IllegalArgumentException(
                        rule + (index == null ? "; it is unset" : "; it is \"" + index + "\""));
            }
            return new Shard(Integer.parseInt(index.trim()) + 1, n);
        }
        int k = Integer.parseInt(m.group(1));
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("K not in 1..N");
        }
        return new Shard(k, n);
    }

    /** Whether this is the whole plan (1/1). */
    public boolean whole() {
        return count == 1;
    }

    /** This shard's part of {@code plan}, triggers recomputed from its own threads; all of it when {@link #whole()}. */
    public LoadPlan of(LoadPlan plan) {
        if (whole()) {
            return plan;
        }
        List<PlannedPhase> phases = new ArrayList<>(plan.phases().size());
        int ordinal = 0; // the thread's number across the whole plan
        int previousThreads = 0;
        for (PlannedPhase p : plan.phases()) {
            List<ThreadAssignment> mine = new ArrayList<>();
            for (ThreadAssignment a : p.assignments()) {
                if (ordinal % count == index - 1) {
                    mine.add(a);
                }
                ordinal++;
            }
            int startAfter = p.index() == 0 ? 0 : PhasePlan.ceilTimes(p.phase().startAfterFraction(), previousThreads);
            phases.add(new PlannedPhase(p.index(), p.phase(), mine.size(), p.wholeThreads(), startAfter, mine));
            previousThreads = mine.size();
        }
        return new LoadPlan(plan.planName(), plan.numThreads(), plan.numSkiers(), plan.numRuns(), phases);
    }

    /** {@code K/N}, as the flag takes it. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
