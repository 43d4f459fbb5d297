package io.upic.liftride.client.prediction;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The CPU per request an invocation measured, stored per machine, JVM, build, server and transport ({@link #key})
 * and reused while {@link Entry#reusable fresh}. Every file error reads as "nothing stored" and makes a save a
 * no-op. Thread-safe: a save replaces its file atomically; the last writer wins.
 *
 * @param dir where entries live (created on the first save); null: stores nothing
 */
public record CalibrationStore(Path dir) {

    /** A stored entry is reused for at most this long: what else runs on a machine changes over days. */
    static final Duration MAX_AGE = Duration.ofDays(7);

    /** Stores nothing and finds nothing (tests, --baseline 0). */
    public static final CalibrationStore NONE = new CalibrationStore(null);

    /** The store of client runs: ~/.cache/liftride/calibration. */
    public static CalibrationStore inUserCache() {
        return new CalibrationStore(Path.of(System.getProperty("user.home"), ".cache", "liftride", "calibration"));
    }

    /**
     * What an invocation's runs measured.
     *
     * @param demandNanos           D, CPU time per request of its last run, on a warm JVM
     * @param coldExtraCpuNanos     the CPU a cold JVM spent beyond D per request (compiling), see {@link WarmUp}
     * @param measuredAt            when
     */
    public record Entry(double demandNanos, double coldExtraCpuNanos, Instant measuredAt) {

        /** Whether it may be reused at {@code now}: measured at most {@link #MAX_AGE} before. */
        public boolean reusable(Instant now) {
            Duration age = Duration.between(measuredAt, now);
            return !age.isNegative() && age.compareTo(MAX_AGE) <= 0;
        }
    }

    /**
     * What identifies an entry: host and cores, JVM and heap, the client jar, the server and the transport; null
     * when the host or the code cannot be named (then nothing is found or stored).
     */
    public static String key(String server, String transport) {
        String host, code;
        try {
            host = InetAddress.getLocalHost().getHostName();
            File jar = new File(CalibrationStore.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            code = jar + "@" + jar.length() + "@" + jar.lastModified();
        } catch (Exception e) {
            return null;
        }
        Runtime rt = Runtime.getRuntime();
        return host + " " + rt.availableProcessors() + "cpu "
                + System.getProperty("java.vm.name").replace(' ', '_')
                + " " + System.getProperty("java.runtime.version") + " " + rt.maxMemory() + "B " + code + " " + server
                + " " + transport;
    }

    /** The entry stored under {@code key}, if any. */
    public Optional<Entry> find(String key) {
        Path file = file(key);
        try {
            List<String> lines = file == null ? List.of() : Files.readAllLines(file);
            if (lines.size() != 2 || !lines.get(0).equals(key)) {
                return Optional.empty(); // nothing, or another key with the same hash
            }
            String[] f = lines.get(1).split(" ");
            return Optional.of(new Entry(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Instant.parse(f[2])));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Stores {@code entry} under {@code key}; whether it was stored. */
    public boolean save(String key, Entry entry) {
        Path file = file(key);
        if (file == null) {
            return false;
        }
        String values = entry.demandNanos() + " " + entry.coldExtraCpuNanos() + " " + entry.measuredAt();
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "calibration", ".tmp");
            Files.write(tmp, List.of(key, values));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Where {@code key}'s entry lives, or null without a directory or a key. */
    Path file(String key) {
        return dir == null || key == null ? null : dir.resolve(String.format("%08x.properties", key.hashCode()));
    }
}
