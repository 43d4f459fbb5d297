package io.upic.liftride.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * CPU caps for child processes through cgroup v2 ({@code cpu.max}) or v1, whichever is writable: a process
 * enters its group before it execs ({@link #wrap}), so a JVM sizes itself to its cap. {@link #close()} removes
 * every group made. Needs root or a delegated cgroup tree. Thread-safe.
 */
public final class CpuCgroups implements AutoCloseable {
    /** Where Linux mounts cgroups. */
    public static final Path MOUNT_ROOT = Path.of("/sys/fs/cgroup");
    /** A group this class makes: liftride-PID-NAME, PID the JVM that made it. */
    private static final Pattern OURS = Pattern.compile("liftride-(\\d{1,18})-[A-Za-z0-9_-]+");

    /** Which cgroup interface a hierarchy speaks. */
    public enum Version {
        V1,
        V2
    }

    private final Path hierarchy;
    private final Version version;
    private final String prefix = "liftride-" + ProcessHandle.current().pid() + "-";
    private final List<Path> groups = new ArrayList<>();

    private CpuCgroups(Path hierarchy, Version version) {
        this.hierarchy = hierarchy;
        this.version = version;
    }

    /** The machine's writable CPU controller, under {@link #MOUNT_ROOT}. */
    public static CpuCgroups open() {
        return open(MOUNT_ROOT);
    }

    /**
     * The writable CPU controller under {@code mountRoot}: cgroup v2 at the root (unified) or at
     * {@code unified/} (hybrid) if its {@code cpu} controller is available, else v1 at {@code cpu/} or
     * {@code cpu,cpuacct/}.
     *
     * @throws IllegalStateException in one line, if neither is there and writable
     */
    public static CpuCgroups open(Path mountRoot) {
        for (Path v2 : List.of(mountRoot, mountRoot.resolve("unified"))) {
            if (hasCpuController(v2) && enableCpuForChildren(v2) && canMakeGroups(v2)) {
                return removeStale(new CpuCgroups(v2, Version.V2));
            }
        }
        for (Path v1 : List.of(mountRoot.resolve("cpu"), mountRoot.resolve("cpu,cpuacct"))) {
            if (Files.exists(v1.resolve("cpu.cfs_quota_us")) && canMakeGroups(v1)) {
                return removeStale(new CpuCgroups(v1, Version.V1));
            }
        }
        throw new IllegalStateException("--server-cpus needs a writable cgroup CPU controller, and neither cgroup v2"
                + " (cpu.max under " + mountRoot + " or " + mountRoot.resolve("unified") + ") nor v1 (cpu.cfs_quota_us"
                + " under " + mountRoot.resolve("cpu") + ") is writable here: run as root, or without --server-cpus");
    }

    /** Removes the empty groups a SIGKILLed cluster left behind (named after a pid no longer running). */
    private static CpuCgroups removeStale(CpuCgroups cgroups) {
        try (Stream<Path> children = Files.list(cgroups.hierarchy)) {
            children.filter(dir -> isStale(dir.getFileName().toString())).forEach(dir -> {
                if (words(dir.resolve("cgroup.procs")).stream().allMatch(String::isEmpty)) {
                    remove(dir);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not look for stale cgroups in " + cgroups.hierarchy + ": " + e);
        }
        return cgroups;
    }

    private static boolean isStale(String name) {
        Matcher m = OURS.matcher(name);
        return m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty();
    }

    private static boolean hasCpuController(Path v2) {
        return words(v2.resolve("cgroup.controllers")).contains("cpu");
    }

    /** A v2 group's cpu.max exists only if its parent hands the cpu controller down to its children. */
    private static boolean enableCpuForChildren(Path v2) {
        Path control = v2.resolve("cgroup.subtree_control");
        if (words(control).contains("cpu")) {
            return true;
        }
        try {
            Files.writeString(control, "+cpu"); // the kernel refuses with an error what it cannot do
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean canMakeGroups(Path hierarchy) {
        Path probe =
                hierarchy.resolve("liftride-probe-" + ProcessHandle.current().pid());
        try {
            Files.createDirectory(probe);
            Files.delete(probe);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> words(Path file) {
        try {
            return List.of(
                    Files.readString(file, StandardCharsets.US_ASCII).trim().split("\\s+"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The interface of the hierarchy in use. */
    public Version version() {
        return version;
    }

    /** The directory the groups are made in. */
    public Path hierarchy() {
        return hierarchy;
    }

    /**
     * Makes group {@code liftride-PID-NAME} with {@code quota} and returns its directory.
     *
     * @throws IllegalArgumentException if {@code name} is not made of letters, digits, '-' and '_'
     * @throws UncheckedIOException naming the file the kernel refused
     */
    public synchronized Path create(String name, CpuQuota quota) {
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException(
                    "a cgroup name must be letters, digits, '-' or '_', got \"" + name + "\"");
        }
        Path group = hierarchy.resolve(prefix + name);
        try {
            Files.createDirectory(group);
            groups.add(group);
            if (version == Version.V2) {
                write(group.resolve("cpu.max"), quota.quotaMicros() + " " + quota.periodMicros());
            } else { // the period first: the kernel checks the quota against it
                write(group.resolve("cpu.cfs_period_us"), Long.toString(quota.periodMicros()));
                write(group.resolve("cpu.cfs_quota_us"), Long.toString(quota.quotaMicros()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make cgroup " + group + " with " + quota + ": " + e, e);
        }
        return group;
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }

    /**
     * {@code command}, run so that its process joins {@code group} before it execs:
     * {@code sh -c 'echo $$ > GROUP/cgroup.procs && shift && exec "$@"' cgroup-exec GROUP COMMAND...}; the
     * process keeps its pid, so signals reach the program itself.
     */
    public static List<String> wrap(Path group, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(
                "sh", "-c", "echo $$ > \"$1/cgroup.procs\" && shift && exec \"$@\"", "cgroup-exec", group.toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * The group's {@code cpu.stat} counters, e.g. {@code nr_periods} and {@code nr_throttled} (both
     * versions), {@code throttled_time} (v1, ns) or {@code throttled_usec} (v2).
     */
    public static Map<String, Long> stat(Path group) {
        Map<String, Long> counters = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(group.resolve("cpu.stat"), StandardCharsets.US_ASCII)) {
                String[] pair = line.trim().split("\\s+");
                if (pair.length == 2 && pair[1].matches("\\d+")) {
                    counters.put(pair[0], Long.parseLong(pair[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + group.resolve("cpu.stat"), e);
        }
        return counters;
    }

    /** The groups made and not yet removed, in creation order. */
    public synchronized List<Path> groups() {
        return List.copyOf(groups);
    }

    /**
     * Removes every group made, first moving any process left to the root (the kernel refuses otherwise);
     * what cannot be removed is named on stderr.
     */
    @Override
    public synchronized void close() {
        for (Path group : groups) {
            try {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
                    if (!pid.isBlank()) {
                        write(hierarchy.resolve("cgroup.procs"), pid.trim());
                    }
                }
                remove(group);
            } catch (NoSuchFileException gone) {
                remove(group);
            } catch (IOException e) {
                System.err.println("could not remove cgroup " + group + ": " + e);
            }
        }
        groups.clear();
    }

    /** rmdir: on cgroupfs the control files go with the directory; a plain one (a test's tree) needs them deleted. */
    private static void remove(Path group) {
        try {
            Files.deleteIfExists(group);
        } catch (DirectoryNotEmptyException plainDirectory) {
            Trees.delete(group);
        } catch (IOException e) {
            System.err.println("could not remove cgroup " + group + ": " + e);
        }
    }
}
