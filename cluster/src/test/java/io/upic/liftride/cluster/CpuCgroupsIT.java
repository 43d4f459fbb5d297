package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real cgroups on this machine (root, or a delegated tree; fails saying why otherwise): a process that
 * would burn a whole core is held to its quota, a JVM started in a group sees its cap, and nothing is
 * left behind.
 */
@Tag("alone") // measures against the machine's capacity: no other test class beside it
@Timeout(60)
class CpuCgroupsIT {
    private static final CpuQuota QUARTER = CpuQuota.of(0.25);
    private static final long CLK_TCK = 100; // Linux's USER_HZ on every architecture Java runs on

    @Test
    void aBusyLoopInAQuarterCpuGroupIsThrottledAndUsesNoMoreThanItsQuota() throws IOException {
        Path logs = Trees.temp("liftride-cgroup-it-");
        Spawner spawner = new Spawner();
        Path group;
        try (CpuCgroups cgroups = CpuCgroups.open()) {
            group = cgroups.create("busy", QUARTER);
            ChildProcess busy = new ChildProcess(
                    "busy",
                    CpuCgroups.wrap(group, List.of("sh", "-c", "while :; do :; done")),
                    logs.resolve("log"),
                    spawner);
            busy.start();
            try {
                Poll.until("the busy loop in its cgroup", Duration.ofSeconds(10), () -> inGroup(busy.pid(), group));
                double startCpu = cpuSeconds(busy.pid());
                long startNanos = System.nanoTime();
                Poll.sleep(3_000);
                double used = cpuSeconds(busy.pid()) - startCpu;
                double wall = (System.nanoTime() - startNanos) / 1e9;
                Map<String, Long> stat = CpuCgroups.stat(group);
                assertTrue(stat.get("nr_throttled") > 0, "throttled in no period: " + stat);
                // at most the quota (plus a tick of accounting slack); a loop on a free core would use ~1.0
                assertTrue(
                        used <= 0.25 * wall * 1.2 + 0.02,
                        "used " + used + " CPU s in " + wall + " s, over 0.25 CPU; " + stat + ", load "
                                + Files.readString(Path.of("/proc/loadavg")));
            } finally {
                busy.kill();
            }
        } finally {
            spawner.close();
            Trees.delete(logs);
        }
        assertFalse(Files.exists(group), "close() removes the group: " + group);
    }

    @Test
    void aJvmStartedInAGroupSeesItsCapFromItsFirstInstruction() {
        try (CpuCgroups cgroups = CpuCgroups.open()) {
            Path group = cgroups.create("jvm", QUARTER);
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Programs.Result settings = Programs.exec(
                    Duration.ofSeconds(30), CpuCgroups.wrap(group, List.of(java, "-XshowSettings:system", "-version")));
            assertEquals(0, settings.exitCode(), settings.output());
            assertTrue(settings.output().contains("Effective CPU Count: 1"), settings.output());
            assertTrue(settings.output().matches("(?s).*CPU Quota: 2500\\s*us.*"), settings.output());
        }
    }

    private static boolean inGroup(long pid, Path group) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/cgroup")).contains("/" + group.getFileName() + "\n");
        } catch (IOException e) {
            return false;
        }
    }

    private static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLK_TCK;
    }
}
