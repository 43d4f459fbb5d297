package io.upic.liftride.ec2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.cluster.Programs;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The setup scripts and the test's systemctl stub pass ShellCheck (Debian's package) without a finding. */
class SetupScriptsShellcheckIT {

    @Test
    void scriptsHaveNoShellcheckFinding() {
        String shellcheck = Programs.require("shellcheck", "shellcheck");
        Path ec2 = Path.of(System.getProperty("liftride.ec2.dir"));
        Programs.Result r = Programs.exec(
                Duration.ofMinutes(1),
                shellcheck,
                ec2.resolve("web-setup.sh").toString(),
                ec2.resolve("redis-setup.sh").toString(),
                ec2.resolve("src/test/resources/io/upic/liftride/ec2/systemctl").toString());
        assertEquals(0, r.exitCode(), r.output());
    }
}
