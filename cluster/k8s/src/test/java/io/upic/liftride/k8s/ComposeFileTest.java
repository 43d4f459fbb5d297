package io.upic.liftride.k8s;

import static io.upic.liftride.k8s.Manifests.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.operations.OperatingSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** compose.yaml, nginx.conf and prometheus.yml agree with each other, with the image and with the drain. */
class ComposeFileTest {

    private static final Set<String> SERVERS = Set.of("server-1:8080", "server-2:8080");

    private static Map<String, Object> yaml(String file) throws Exception {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(Path.of(file)));
    }

    @Test
    void nginxBalancesTheTwoServersWhichShareTheRedisAndPrometheusScrapesTheirManagementPorts() throws Exception {
        Map<String, Object> compose = yaml("compose.yaml");
        Map<String, Object> services = at(compose, "services");
        assertEquals(Set.of("redis", "server-1", "server-2", "nginx", "prometheus"), services.keySet());
        Matcher upstream =
                Pattern.compile("server (\\S+) max_fails").matcher(Files.readString(Path.of("compose/nginx.conf")));
        assertEquals(SERVERS, upstream.results().map(m -> m.group(1)).collect(Collectors.toSet()));
        List<String> targets = at(yaml("compose/prometheus.yml"), "scrape_configs.0.static_configs.0.targets");
        for (String server : List.of("server-1", "server-2")) {
            assertEquals("redis://redis:6379", at(services, server + ".environment.LIFTRIDE_STORE"));
            List<String> args = at(services, server + ".command");
            assertEquals("0.0.0.0", Manifests.valueOf(args, "--management-host"));
            assertTrue(targets.contains(server + ":" + Manifests.valueOf(args, "--management-port")), server);
            assertTrue(SERVERS.contains(server + ":" + Manifests.valueOf(args, "--port")), server);
        }
        assertEquals(2, targets.size(), "Prometheus scrapes the two servers' management ports: " + targets);
        assertTrue(at(services, "server-1.ports") == null, "the servers publish no port; nginx is the front");
        List<String> redis = at(services, "redis.command");
        assertEquals("yes", redis.get(redis.indexOf("--appendonly") + 1));
    }

    @Test
    void theServersRunTheShippedImageAndAreGivenTimeForTheirWholeDrain() throws Exception {
        Map<String, Object> server = at(yaml("compose.yaml"), "services.server-1");
        Map<String, Object> deployment = Manifests.load().get("Deployment", "liftride");
        assertEquals(at(deployment, "spec.template.spec.containers.0.image"), server.get("image"));
        long drainSeconds =
                OperatingSettings.read(name -> null).drainMax().toSeconds() + EmbeddedServer.STORE_CLOSE_SECONDS;
        String grace = at(server, "stop_grace_period");
        assertTrue(Long.parseLong(grace.replace("s", "")) > drainSeconds, grace + " <= " + drainSeconds + " s");
        assertEquals(true, server.get("read_only"));
    }
}
