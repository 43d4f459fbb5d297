package io.upic.liftride.client.engine;

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
 * The model's inputs from a full load calibration, stored once per machine, JVM, client build, server and transport
 * (see {@link #key}) in a file of two lines (the key; D, Z and W in nanoseconds, and when), and reused by later
 * invocations while {@link Entry#reusable fresh}. Every file error reads as "nothing stored" and makes a save a
 * no-op: the store only saves time. Thread-safe (a save replaces its file atomically; the last writer wins).
 */
public final class CalibrationStore {

    /** A stored calibration is reused for at most this long: what else runs on a machine changes over days... */
    static final Duration MAX_AGE = Duration.ofDays(1);

    /** ...and while the baseline's W is within this share of the W stored beside it (a changed path or server). */
    static final double MAX_W_CHANGE = 0.25;

    /** Stores nothing and finds nothing (tests, --baseline 0). */
    public static final CalibrationStore NONE = new CalibrationStore(null);

    private final Path dir;

    /** A store in {@code dir} (created on the first save), or none for null. */
    public CalibrationStore(Path dir) {
        this.dir = dir;
    }

    /** The store of client runs: ~/.cache/liftride/calibration. */
    public static CalibrationStore inUserCache() {
        return new CalibrationStore(Path.of(System.getProperty("user.home"), ".cache", "liftride", "calibration"));
    }

    /**
     * A full calibration's result.
     *
     * @param demandNanos  D, CPU time per request under load
     * @param delayNanos   Z, the delay the model took (the larger of W - D and the delay under load)
     * @param latencyNanos the baseline's W beside which D and Z were measured
     * @param measuredAt   when
     */
    public record Entry(double demandNanos, double delayNanos, double latencyNanos, Instant measuredAt) {

        /** Whether it may stand in for a calibration at {@code now}, after a baseline that measured W = {@code w}. */
        public boolean reusable(double w, Instant now) {
            Duration age = Duration.between(measuredAt, now);
            return !age.isNegative() && age.compareTo(MAX_AGE) <= 0 && Math.abs(w - latencyNanos) <= MAX_W_CHANGE * w;
        }

        /**
         * Z for a baseline that measured W = {@code w}: the stored delay moved by W's change (the round trip's), at
         * least W - D.
         */
        public double delayNanosAt(double w) {
            return Math.max(w - demandNanos, delayNanos + w - latencyNanos);
        }
    }

    /**
     * What identifies a calibration: this host and its cores, the JVM and its heap, the client's code (its jar's path,
     * size and time), the server ({@code server}: "embedded" or its URL) and the transport; null when the host or
     * the code cannot be named (then nothing is found or stored).
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
        return String.join(
                " ",
                host,
                rt.availableProcessors() + "cpu",
                System.getProperty("java.vm.name").replace(' ', '_'),
                System.getProperty("java.runtime.version"),
                rt.maxMemory() + "B",
                code,
                server,
                transport);
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
            return Optional.of(new Entry(
                    Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]), Instant.parse(f[3])));
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
        String values = String.join(
                " ",
                Double.toString(entry.demandNanos()),
                Double.toString(entry.delayNanos()),
                Double.toString(entry.latencyNanos()),
                entry.measuredAt().toString());
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
