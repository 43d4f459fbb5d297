package io.upic.liftride.ec2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * web-setup.sh's Amazon Linux 2023 branch, run for real against stubs on the PATH (dnf, apt-get, systemctl, curl,
 * nginx, useradd, chown) that log their arguments, with SETUP_ROOT standing for /: the commands it issues and the
 * files it writes.
 */
class WebSetupOnAmazonLinuxTest {

    private static final Path EC2 = Path.of(System.getProperty("liftride.ec2.dir"));
    private static final Path SHIPPED = Path.of(System.getProperty("liftride.shipped.dir"));
    private static final String VERSION = System.getProperty("liftride.tomcat.version");

    @TempDir
    Path dir;

    private Path root;
    private Path bin;
    private Path log;

    @BeforeEach
    void stubsAndAnAmazonLinuxRoot() throws Exception {
        root = Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(root.resolve("etc/nginx"));
        Files.writeString(root.resolve("etc/nginx/nginx.conf"), "# AL2023's own, with a server on port 80\n");
        Files.writeString(
                root.resolve("etc/os-release"),
                "NAME=\"Amazon Linux\"\nVERSION_ID=\"2023\"\nID=\"amzn\"\nID_LIKE=\"fedora\"\n");
        bin = Files.createDirectories(dir.resolve("bin"));
        log = dir.resolve("commands.log");
        Path tarball = tomcatTarball();
        for (String name : List.of("dnf", "apt-get", "systemctl", "nginx", "useradd", "chown", "aws")) {
            stub(name, "");
        }
        // the download: the tarball, and its .sha512 as archive.apache.org publishes it
        stub(
                "curl",
                "case \"$*\" in\n"
                        + "  *.tar.gz.sha512*) out=$(echo \"$*\" | sed 's/.*-o \\([^ ]*\\).*/\\1/');"
                        + " sha512sum " + tarball + " | sed 's| .*| *apache-tomcat.tar.gz|' > \"$out\" ;;\n"
                        + "  *.tar.gz*) out=$(echo \"$*\" | sed 's/.*-o \\([^ ]*\\).*/\\1/'); cp " + tarball
                        + " \"$out\" ;;\n"
                        + "  *health/ready*) echo '{\"status\":\"UP\"}' ;;\n"
                        + "esac\n");
        stub("id", "[ \"$1\" = -u ] && [ $# = 1 ] && { echo 0; exit 0; }; exit 1\n");
        Path files = Files.createDirectories(dir.resolve("files"));
        Files.writeString(files.resolve("liftride.war"), "war");
        Files.writeString(files.resolve("liftride-tomcat-valve.jar"), "valve");
        Files.copy(SHIPPED.resolve("server.xml"), files.resolve("server.xml"));
        Files.copy(SHIPPED.resolve("setenv.sh"), files.resolve("setenv.sh"));
    }

    /** A tarball laid out as Tomcat's: one top folder with bin/, conf/, lib/, logs/, temp/, work/, webapps/ROOT. */
    private Path tomcatTarball() throws Exception {
        Path top = Files.createDirectories(dir.resolve("t/apache-tomcat-" + VERSION));
        for (String d : List.of("bin", "conf", "lib", "logs", "temp", "work", "webapps/ROOT", "webapps/manager")) {
            Files.createDirectories(top.resolve(d));
        }
        Files.writeString(top.resolve("bin/catalina.sh"), "#!/bin/sh\n");
        Path tarball = dir.resolve("apache-tomcat.tar.gz");
        assertEquals(
                0,
                run(
                                List.of(
                                        "tar",
                                        "-czf",
                                        tarball.toString(),
                                        "-C",
                                        dir.resolve("t").toString(),
                                        top.getFileName().toString()),
                                Map.of())
                        .exit);
        return tarball;
    }

    private void stub(String name, String body) throws IOException {
        Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\necho \"" + name + " $*\" >> " + log + "\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Ran(int exit, String output) {}

    private Ran run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        return new Ran(p.exitValue(), out);
    }

    private Ran setup(Map<String, String> settings) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(settings);
        env.put("PATH", bin + ":/usr/bin:/bin");
        env.put("SETUP_ROOT", root.toString());
        env.put("FILES", dir.resolve("files").toString());
        env.put("READY_SECONDS", "3");
        return run(List.of("bash", EC2.resolve("web-setup.sh").toString()), env);
    }

    @Test
    void installsCorrettoAndNginxWithDnfEnablesBothAndKeepsTheOomExit() throws Exception {
        Ran ran = setup(Map.of("STORE", "rediss://liftride@10.0.1.5:6379", "STORE_PASSWORD", "pw"));
        assertEquals(0, ran.exit, ran.output);
        List<String> commands = Files.readAllLines(log);
        assertTrue(
                commands.contains("dnf install -y java-17-amazon-corretto-headless nginx tar gzip shadow-utils"),
                commands.toString());
        assertFalse(commands.stream().anyMatch(c -> c.startsWith("apt-get")), commands.toString());
        String tarball = "https://archive.apache.org/dist/tomcat/tomcat-9/v" + VERSION + "/bin/apache-tomcat-" + VERSION
                + ".tar.gz";
        assertTrue(
                commands.stream().anyMatch(c -> c.startsWith("curl ") && c.endsWith(" " + tarball)),
                commands.toString());
        assertTrue(commands.stream().anyMatch(c -> c.startsWith("curl ") && c.endsWith(" " + tarball + ".sha512")));
        assertTrue(commands.stream().anyMatch(c -> c.startsWith("useradd --system") && c.endsWith(" tomcat")));
        int enable = commands.indexOf("systemctl enable tomcat");
        int restart = commands.indexOf("systemctl restart tomcat");
        int nginx = commands.indexOf("systemctl enable --now nginx");
        assertTrue(
                commands.indexOf("systemctl daemon-reload") < enable
                        && enable < restart
                        && restart < nginx
                        && commands.indexOf("nginx -t -q") < nginx
                        && enable >= 0,
                commands.toString());
        assertTrue(commands.stream().anyMatch(c -> c.contains("http://127.0.0.1/liftride/health/ready")));

        String unit = Files.readString(root.resolve("etc/systemd/system/tomcat.service"));
        for (String line : List.of(
                "ExecStart=/opt/tomcat/bin/catalina.sh run",
                "Restart=on-failure",
                "User=tomcat",
                "WantedBy=multi-user.target")) {
            assertTrue(unit.lines().anyMatch(line::equals), line + " in\n" + unit);
        }
        String setenv = Files.readString(root.resolve("opt/tomcat/bin/setenv.sh"));
        assertTrue(setenv.startsWith(Files.readString(SHIPPED.resolve("setenv.sh"))), "appended, not replaced");
        assertTrue(setenv.contains("-XX:+ExitOnOutOfMemoryError"), setenv);
        assertTrue(setenv.contains("-Dliftride.http.address=127.0.0.1"), setenv);
        assertTrue(setenv.contains("-Dliftride.store=rediss://liftride@10.0.1.5:6379"), setenv);
        assertTrue(setenv.contains("export LIFTRIDE_REDIS_PASSWORD='pw'"), setenv);
        assertEquals(
                "rw-r-----",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("opt/tomcat/bin/setenv.sh"))));

        assertTrue(Files.exists(root.resolve("opt/tomcat/webapps/liftride.war")));
        assertFalse(Files.exists(root.resolve("opt/tomcat/webapps/ROOT")), "no default webapps");
        assertFalse(Files.exists(root.resolve("opt/tomcat/webapps/manager")), "no manager");
        assertTrue(Files.exists(root.resolve("opt/tomcat/lib/liftride-tomcat-valve.jar")));
        String nginxConf = Files.readString(root.resolve("etc/nginx/nginx.conf"));
        assertTrue(nginxConf.startsWith("user nginx;\n"), nginxConf);
        assertFalse(nginxConf.contains("sites-enabled"), nginxConf);
        assertTrue(
                Files.readString(root.resolve("etc/nginx/conf.d/liftride.conf")).contains("server 127.0.0.1:8080;"));
        assertTrue(ran.output.contains("-i http://PUBLIC-DNS-OF-THIS-INSTANCE/liftride"), ran.output);
    }

    @Test
    void stopsWithExitOneWhenTheServerNeverTurnsReady() throws Exception {
        stub("curl", "case \"$*\" in *health/ready*) exit 7 ;; esac\n");
        Ran ran = setup(
                Map.of("TOMCAT_TARBALL", dir.resolve("apache-tomcat.tar.gz").toString()));
        assertEquals(1, ran.exit, ran.output);
        assertTrue(ran.output.contains("web-setup: not ready after 3 s: see journalctl -u tomcat"), ran.output);
        assertEquals(
                3,
                Files.readAllLines(log).stream()
                        .filter(c -> c.contains("health/ready"))
                        .count());
    }
}
