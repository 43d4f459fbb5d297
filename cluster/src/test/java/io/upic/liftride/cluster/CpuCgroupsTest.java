package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CpuCgroups on fake cgroup trees: plain directories laid out as the kernel lays out cgroupfs. */
class CpuCgroupsTest {
    private static final CpuQuota QUARTER = CpuQuota.of(0.25);

    @TempDir
    Path mount;

    @Test
    void unifiedV2WritesCpuMaxAsQuotaAndPeriodInMicroseconds() throws IOException {
        Files.writeString(mount.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Files.writeString(mount.resolve("cgroup.subtree_control"), "cpu memory\n");
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertEquals(CpuCgroups.Version.V2, cgroups.version());
            assertEquals(mount, cgroups.hierarchy());
            Path group = cgroups.create("server1", QUARTER);
            assertEquals(mount, group.getParent());
            assertTrue(group.getFileName().toString().matches("liftride-\\d+-server1"), group.toString());
            assertEquals("2500 10000", Files.readString(group.resolve("cpu.max")));
            assertFalse(Files.exists(group.resolve("cpu.cfs_quota_us")));
        }
    }

    @Test
    void hybridV2UnderUnifiedIsUsedWhenItHasTheCpuControllerAndEnablesItForChildren() throws IOException {
        Path unified = Files.createDirectories(mount.resolve("unified"));
        Files.writeString(unified.resolve("cgroup.controllers"), "cpu io\n");
        Files.writeString(unified.resolve("cgroup.subtree_control"), ""); // a fake file keeps what we write
        v1Hierarchy("cpu");
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertEquals(CpuCgroups.Version.V2, cgroups.version());
            assertEquals(unified, cgroups.hierarchy());
            assertEquals("+cpu", Files.readString(unified.resolve("cgroup.subtree_control")));
            assertEquals(
                    "5000 20000",
                    Files.readString(cgroups.create("s", new CpuQuota(0.25, Duration.ofMillis(20)))
                            .resolve("cpu.max")));
        }
    }

    @Test
    void v1IsUsedWhenV2HasNoCpuControllerAndGetsPeriodAndQuota() throws IOException {
        Path unified = Files.createDirectories(mount.resolve("unified"));
        Files.writeString(unified.resolve("cgroup.controllers"), ""); // as on a hybrid host: cpu is v1's
        Path cpu = v1Hierarchy("cpu");
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertEquals(CpuCgroups.Version.V1, cgroups.version());
            assertEquals(cpu, cgroups.hierarchy());
            Path group = cgroups.create("server2", new CpuQuota(1.5, Duration.ofMillis(10)));
            assertEquals("10000", Files.readString(group.resolve("cpu.cfs_period_us")));
            assertEquals("15000", Files.readString(group.resolve("cpu.cfs_quota_us")));
        }
    }

    @Test
    void v1MountedTogetherWithCpuacctIsFound() throws IOException {
        Path both = v1Hierarchy("cpu,cpuacct");
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertEquals(both, cgroups.hierarchy());
        }
    }

    @Test
    void neitherVersionFailsInOneLineNamingTheFlagAndWhereItLooked() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> CpuCgroups.open(mount));
        assertTrue(e.getMessage().startsWith("--server-cpus needs a writable cgroup CPU controller"), e.getMessage());
        assertTrue(e.getMessage().contains(mount.resolve("cpu").toString()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void closeRemovesEveryGroupItMadeAndNothingElse() throws IOException {
        Path cpu = v1Hierarchy("cpu");
        Path other = Files.createDirectory(cpu.resolve("someone-elses"));
        CpuCgroups cgroups = CpuCgroups.open(mount);
        Path one = cgroups.create("server1", QUARTER);
        Path two = cgroups.create("server2", QUARTER);
        assertEquals(List.of(one, two), cgroups.groups());
        cgroups.close();
        assertFalse(Files.exists(one));
        assertFalse(Files.exists(two));
        assertTrue(Files.exists(other));
        assertEquals(List.of(), cgroups.groups());
        cgroups.close(); // twice is harmless
    }

    @Test
    void closeMovesProcessesStillInAGroupToTheRootFirst() throws IOException {
        Path cpu = v1Hierarchy("cpu");
        CpuCgroups cgroups = CpuCgroups.open(mount);
        Path group = cgroups.create("server1", QUARTER);
        Files.writeString(group.resolve("cgroup.procs"), "4242\n");
        cgroups.close();
        assertEquals("4242", Files.readString(cpu.resolve("cgroup.procs")));
        assertFalse(Files.exists(group));
    }

    @Test
    void openRemovesEmptyGroupsLeftByAClusterThatNoLongerRuns() throws IOException {
        Path cpu = v1Hierarchy("cpu");
        // pids above the kernel's largest pid_max (4,194,304): no such process runs
        Path stale = Files.createDirectory(cpu.resolve("liftride-" + 4_000_000_001L + "-server1"));
        Path busy = Files.createDirectory(cpu.resolve("liftride-" + 4_000_000_002L + "-server2"));
        Files.writeString(busy.resolve("cgroup.procs"), "4242\n");
        Path live = Files.createDirectory(
                cpu.resolve("liftride-" + ProcessHandle.current().pid() + "-server1"));
        Path foreign = Files.createDirectory(cpu.resolve("liftride-something-else"));
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertFalse(Files.exists(stale), "a dead launcher's empty group is removed");
            assertTrue(Files.exists(busy), "a group with a process in it is left");
            assertTrue(Files.exists(live), "a running launcher's group is left");
            assertTrue(Files.exists(foreign), "a group not named by us is left");
        }
    }

    @Test
    void refusesANameThatIsNotAPlainDirectoryName() throws IOException {
        v1Hierarchy("cpu");
        try (CpuCgroups cgroups = CpuCgroups.open(mount)) {
            assertThrows(IllegalArgumentException.class, () -> cgroups.create("../escape", QUARTER));
            assertThrows(IllegalArgumentException.class, () -> cgroups.create("", QUARTER));
        }
    }

    @Test
    void statReadsTheCountersOfEitherVersion() throws IOException {
        Path group = Files.createDirectory(mount.resolve("g"));
        Files.writeString(group.resolve("cpu.stat"), "nr_periods 120\nnr_throttled 87\nthrottled_time 912345678\n");
        assertEquals(
                Map.of("nr_periods", 120L, "nr_throttled", 87L, "throttled_time", 912345678L), CpuCgroups.stat(group));
        Files.writeString(
                group.resolve("cpu.stat"), "usage_usec 5000\nnr_periods 3\nnr_throttled 1\nthrottled_usec 70\n");
        assertEquals(1L, CpuCgroups.stat(group).get("nr_throttled"));
    }

    @Test
    void wrapJoinsTheGroupBeforeExecingTheCommandUnchanged() {
        List<String> wrapped =
                CpuCgroups.wrap(Path.of("/cg/liftride-1-server1"), List.of("java", "-Xmx512m", "-cp", "a b.jar"));
        assertEquals(List.of("sh", "-c"), wrapped.subList(0, 2));
        assertTrue(wrapped.get(2).contains("cgroup.procs") && wrapped.get(2).contains("exec \"$@\""), wrapped.get(2));
        assertEquals(List.of("/cg/liftride-1-server1", "java", "-Xmx512m", "-cp", "a b.jar"), wrapped.subList(4, 9));
    }

    @Test
    void quotaRefusesWhatTheKernelOrTheMachineCannotGive() {
        assertEquals(2500, QUARTER.quotaMicros());
        assertEquals(10000, QUARTER.periodMicros());
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(
                "--server-cpus must be > 0 and <= " + cores + " (the cores), got 0.0",
                assertThrows(IllegalArgumentException.class, () -> CpuQuota.of(0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> CpuQuota.of(cores + 0.5));
        assertThrows(IllegalArgumentException.class, () -> CpuQuota.of(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new CpuQuota(0.25, Duration.ofMillis(2)));
        assertThrows(IllegalArgumentException.class, () -> new CpuQuota(0.25, Duration.ofSeconds(2)));
    }

    private Path v1Hierarchy(String name) throws IOException {
        Path dir = Files.createDirectories(mount.resolve(name));
        Files.writeString(dir.resolve("cpu.cfs_quota_us"), "-1\n");
        return dir;
    }
}
