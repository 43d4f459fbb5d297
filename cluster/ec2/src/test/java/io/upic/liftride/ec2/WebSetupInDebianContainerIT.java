package io.upic.liftride.ec2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.upic.liftride.cluster.FreePorts;
import io.upic.liftride.cluster.Programs;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * redis-setup.sh and then web-setup.sh (apt-get branch, the store that Redis over TLS as user liftride) run for
 * real as root in one podman container (runc) on the k8s module's cached Debian 12 base, with Debian's packages from
 * the network. systemd is replaced by a stub systemctl that runs each unit's ExecStart as its User, and
 * policy-rc.d keeps apt-get from starting services itself. Then client-part2 on the host loads it through nginx,
 * published on 127.0.0.1 only, and its count reconciles with the store's.
 */
class WebSetupInDebianContainerIT {

    private static final Path EC2 = Path.of(System.getProperty("liftride.ec2.dir"));
    private static final Path FILES = Path.of(System.getProperty("liftride.ec2.files"));
    private static final Path SHIPPED = Path.of(System.getProperty("liftride.shipped.dir"));
    private static final String BASE = "liftride-base:debian12-jre17";

    @TempDir
    Path dir;

    private String podman;

    private Programs.Result podman(Duration limit, String... args) {
        List<String> command = new ArrayList<>(List.of(podman));
        command.addAll(List.of(args));
        return Programs.exec(limit, command);
    }

    @Test
    void setsUpTomcatAndNginxThatTheClientLoadsAndReconcilesWith() throws Exception {
        podman = Programs.require("podman", "podman");
        Programs.require("runc", "runc");
        Programs.Result loaded =
                podman(Duration.ofMinutes(2), "load", "-q", "-i", System.getProperty("liftride.base.image"));
        assertEquals(0, loaded.exitCode(), loaded.output());
        Path setup = Files.createDirectories(dir.resolve("setup"));
        Files.copy(SHIPPED.resolve("server.xml"), setup.resolve("server.xml"));
        Files.copy(SHIPPED.resolve("setenv.sh"), setup.resolve("setenv.sh"));
        Files.copy(SHIPPED.resolve("../redis/redis.conf"), setup.resolve("redis.conf"));
        Files.copy(EC2.resolve("web-setup.sh"), setup.resolve("web-setup.sh"));
        Files.copy(EC2.resolve("redis-setup.sh"), setup.resolve("redis-setup.sh"));
        try (InputStream stub = getClass().getResourceAsStream("systemctl")) {
            Files.copy(stub, setup.resolve("systemctl"));
        }
        Files.setPosixFilePermissions(setup.resolve("systemctl"), PosixFilePermissions.fromString("rwxr-xr-x"));
        int port = FreePorts.next();
        String name = "liftride-ec2-it-" + port;
        try {
            Programs.Result started = podman(
                    Duration.ofMinutes(1),
                    "run",
                    "-d",
                    "--runtime",
                    "runc",
                    "--ulimit",
                    "nofile=16384:16384",
                    "--ulimit",
                    "nproc=1024:1024",
                    "--name",
                    name,
                    "-p",
                    "127.0.0.1:" + port + ":80",
                    "-v",
                    setup + ":/setup:ro",
                    "-v",
                    FILES + ":/files:ro",
                    BASE,
                    "sleep",
                    "600");
            assertEquals(0, started.exitCode(), started.output());
            long t0 = System.nanoTime();
            Programs.Result ran = podman(
                    Duration.ofMinutes(4),
                    "exec",
                    name,
                    "sh",
                    "-c",
                    "install -m 755 /setup/systemctl /usr/local/bin/systemctl"
                            + " && printf '#!/bin/sh\\nexit 101\\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d"
                            + " && cp /files/* /setup/*.xml /setup/*.conf /setup/setenv.sh /tmp/"
                            + " && FILES=/tmp STORE_PASSWORD=it-password bash /setup/redis-setup.sh"
                            + " && a=$(hostname -I | cut -d' ' -f1)"
                            + " && FILES=/tmp TOMCAT_TARBALL=/tmp/apache-tomcat.tar.gz STORE=rediss://liftride@$a:6379"
                            + " STORE_PASSWORD=it-password STORE_CA=/etc/redis/tls/ca.crt bash /setup/web-setup.sh");
            System.out.printf(
                    "WebSetupInDebianContainerIT: redis-setup.sh and web-setup.sh took %.1f s%n%s%n",
                    (System.nanoTime() - t0) / 1e9, Programs.lastLines(ran.output(), 8));
            assertEquals(0, ran.exitCode(), ran.output());
            assertTrue(ran.output().contains("redis-setup: ready: TLS on "), ran.output());
            assertTrue(ran.output().contains("web-setup: ready: {\"status\":\"UP\""), ran.output());

            // Tomcat runs as tomcat, its JVM with the shipped setenv.sh's flag and the loopback address appended
            Programs.Result java = podman(
                    Duration.ofSeconds(20),
                    "exec",
                    name,
                    "sh",
                    "-c",
                    "p=$(cat /run/stub-tomcat.pid); stat -c %U /proc/$p; tr '\\0' ' ' < /proc/$p/cmdline;"
                            + " cat /var/log/systemctl.log");
            assertTrue(java.output().startsWith("tomcat\n"), java.output());
            assertTrue(java.output().contains("-XX:+ExitOnOutOfMemoryError"), java.output());
            assertTrue(java.output().contains("-Dliftride.http.address=127.0.0.1"), java.output());
            assertTrue(java.output().contains("systemctl enable --now nginx"), java.output());

            Path out = dir.resolve("run");
            Programs.Result load = Programs.exec(
                    Duration.ofMinutes(2),
                    "java",
                    "-jar",
                    System.getProperty("liftride.client.jar"),
                    "-t",
                    "4",
                    "-s",
                    "100",
                    "--baseline",
                    "0",
                    "-i",
                    "http://127.0.0.1:" + port + "/liftride",
                    "--out",
                    out.toString());
            System.out.println("WebSetupInDebianContainerIT: client\n" + Programs.lastLines(load.output(), 12));
            assertEquals(0, load.exitCode(), load.output());
            JsonObject summary = JsonParser.parseString(Files.readString(out.resolve("t4/summary.json")))
                    .getAsJsonObject();
            long successful = summary.get("successful").getAsLong();
            JsonObject server = summary.getAsJsonObject("server");
            assertEquals(summary.get("planned").getAsLong(), successful, summary.toString());
            assertTrue(successful > 0, summary.toString());
            assertTrue(server.get("reconciled").getAsBoolean(), server.toString());
            assertEquals(successful, server.get("delta").getAsLong(), server.toString());
        } finally {
            podman(Duration.ofMinutes(1), "rm", "-f", "-t", "0", name);
        }
    }
}
