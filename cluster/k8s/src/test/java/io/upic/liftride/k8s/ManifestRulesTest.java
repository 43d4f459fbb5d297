package io.upic.liftride.k8s;

import static io.upic.liftride.k8s.Manifests.at;
import static io.upic.liftride.k8s.Manifests.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.MaxDuration;
import io.upic.liftride.client.cli.StartAt;
import io.upic.liftride.client.live.LiveEndpoint;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.operations.OperatingSettings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The rules the shipped manifests must keep, read from the YAML itself and checked against the code's values. */
class ManifestRulesTest {

    private static final String POD = "spec.template.spec.";
    private static final String CONTAINER = POD + "containers.0.";
    /** The merge Job's inbox, where each shard's upload sidecar sends its folder. */
    private static final String INBOX = "liftride-results";

    private final Manifests manifests = Manifests.load();
    private final Map<String, Object> load = manifests.get("Job", "liftride-load");
    private final List<String> loadArgs = at(load, CONTAINER + "args");

    @Test
    void theLoadIsAnIndexedJobWhoseShardsAreNeverRetriedAndAllRunAtOnce() {
        assertEquals("Indexed", at(load, "spec.completionMode"));
        assertEquals(0, (int) at(load, "spec.backoffLimit"), "a retried shard sends its rides twice");
        assertEquals("Failed", at(load, "spec.podReplacementPolicy"), "no second pod while the first terminates");
        assertEquals("Never", at(load, POD + "restartPolicy"));
        int shards = at(load, "spec.completions");
        assertEquals(shards, (int) at(load, "spec.parallelism"), "a shard started later would come up late");
        assertEquals("auto/" + shards, valueOf(loadArgs, "--shard"));
        assertEquals(
                "metadata.annotations['batch.kubernetes.io/job-completion-index']",
                at(load, CONTAINER + "env.0.valueFrom.fieldRef.fieldPath"));
        assertEquals(Shard.INDEX_VARIABLE, at(load, CONTAINER + "env.0.name"));
    }

    @Test
    void everyShardStartsAtOneInstantAndStopsItselfBeforeTheJobsDeadline() {
        assertNotNull(StartAt.parse(valueOf(loadArgs, "--start-at")));
        assertEquals("0", valueOf(loadArgs, "--baseline"), "the baseline's rides would belong to no run");
        Duration clientLimit = MaxDuration.parse(valueOf(loadArgs, "--max-duration"));
        Duration jobLimit = Duration.ofSeconds((int) at(load, "spec.activeDeadlineSeconds"));
        assertTrue(clientLimit.compareTo(jobLimit) < 0, clientLimit + " must end before the Job's " + jobLimit);
    }

    @Test
    void everyShardServesLiveMetricsOnThePortItsPodDeclaresForScraping() {
        String port = MetricsAddress.parse(valueOf(loadArgs, "--metrics-port")).port() + "";
        assertEquals(port, at(load, CONTAINER + "ports.0.containerPort").toString());
        assertEquals("metrics", at(load, CONTAINER + "ports.0.name"));
        Map<String, String> scrape = at(load, "spec.template.metadata.annotations");
        assertEquals("true", scrape.get("prometheus.io/scrape"));
        assertEquals(port, scrape.get("prometheus.io/port"));
        assertEquals(LiveEndpoint.PATH, scrape.get("prometheus.io/path"));
    }

    @Test
    void eachShardUploadsItsFolderWhenItsClientEndsToTheInboxTheMergeWaitsOn() {
        Map<String, Object> upload = at(load, POD + "initContainers.0");
        assertEquals("Always", upload.get("restartPolicy"), "a sidecar: SIGTERM once the client has ended");
        String send = at(upload, "args.0");
        assertTrue(send.contains("trap '") && send.contains("' TERM"), send);
        assertTrue(send.contains("redis-cli -h " + INBOX + " "), send);
        assertTrue(send.contains("cd /results/shard-$" + Shard.INDEX_VARIABLE), send);
        assertEquals("/results/shard-$(" + Shard.INDEX_VARIABLE + ")", valueOf(loadArgs, "--out"));
        for (String c : List.of(CONTAINER, POD + "initContainers.0.")) {
            assertEquals("/results", at(load, c + "volumeMounts.0.mountPath"));
            assertEquals("results", at(load, c + "volumeMounts.0.name"));
        }
        assertEquals(Map.of(), at(load, POD + "volumes.0.emptyDir"), "no volume shared between nodes");
        Map<String, Object> merge = manifests.get("Job", "liftride-merge");
        Map<String, Object> inbox = manifests.get("Service", INBOX);
        Map<String, Object> mergeLabels = at(merge, "spec.template.metadata.labels");
        assertTrue(mergeLabels.entrySet().containsAll(((Map<?, ?>) at(inbox, "spec.selector")).entrySet()));
        assertEquals(true, at(inbox, "spec.publishNotReadyAddresses"), "the inbox answers while the pod initializes");
        assertEquals("Always", at(merge, POD + "initContainers.0.restartPolicy"));
        assertEquals(
                at(inbox, "spec.ports.0.targetPort").toString(),
                at(merge, POD + "initContainers.0.ports.0.containerPort").toString());
        assertEquals("liftride-results", at(merge, POD + "volumes.0.persistentVolumeClaim.claimName"));
        Map<String, Object> claim = manifests.get("PersistentVolumeClaim", "liftride-results");
        assertEquals(List.of("ReadWriteOnce"), at(claim, "spec.accessModes"), "any default storage class");
    }

    @Test
    void load_shSetsTheShardCountInEveryPlaceAndOneInstant() {
        for (int shards : new int[] {2, 4, 8}) {
            Manifests rendered = Manifests.rendered(shards, "2026-12-07T22:00:00Z");
            Map<String, Object> job = rendered.get("Job", "liftride-load");
            List<String> args = at(job, CONTAINER + "args");
            assertEquals(shards, (int) at(job, "spec.completions"));
            assertEquals(shards, (int) at(job, "spec.parallelism"));
            assertEquals("auto/" + shards, valueOf(args, "--shard"));
            assertEquals("2026-12-07T22:00:00Z", valueOf(args, "--start-at"));
            Map<String, Object> merge = rendered.get("Job", "liftride-merge");
            List<String> mergeArgs = at(merge, CONTAINER + "args");
            List<String> folders = IntStream.range(0, shards)
                    .mapToObj(i -> valueOf(args, "--out").replace("$(" + Shard.INDEX_VARIABLE + ")", "" + i))
                    .toList();
            assertEquals("merge", mergeArgs.get(0));
            assertEquals(folders, mergeArgs.subList(1, 1 + shards));
            assertEquals("--out", mergeArgs.get(1 + shards));
            String collect = at(merge, POD + "initContainers.1.args.0");
            assertTrue(collect.contains("SCARD shards 2>/dev/null)\" -ge " + shards + " ]"), collect);
        }
        String now = Manifests.valueOf(
                at(Manifests.rendered(4, "").get("Job", "liftride-load"), CONTAINER + "args"), "--start-at");
        assertTrue(StartAt.parse(now).isAfter(Instant.now()), "the default instant is ahead: " + now);
    }

    @Test
    void theServerIsProbedOnItsHealthEndpointsAndOutlivesItsWholeDrain() {
        Map<String, Object> server = manifests.get("Deployment", "liftride");
        assertEquals("/liftride/health/ready", at(server, CONTAINER + "readinessProbe.httpGet.path"));
        assertEquals("/liftride/health/live", at(server, CONTAINER + "livenessProbe.httpGet.path"));
        List<String> preStop = at(server, CONTAINER + "lifecycle.preStop.exec.command");
        assertEquals("sleep", preStop.get(0));
        // the launcher halts itself this long after SIGTERM, which comes after the preStop
        Duration stop = OperatingSettings.read(name -> null)
                .drainMax()
                .plusSeconds(EmbeddedServer.STORE_CLOSE_SECONDS)
                .plusSeconds(Long.parseLong(preStop.get(1)));
        int grace = at(server, POD + "terminationGracePeriodSeconds");
        assertTrue(stop.toSeconds() < grace, "terminationGracePeriodSeconds " + grace + " <= " + stop);
        assertNotNull(at(server, CONTAINER + "resources.requests.cpu"));
        assertEquals(
                (Object) at(server, CONTAINER + "resources.requests.memory"),
                at(server, CONTAINER + "resources.limits.memory"),
                "the heap is sized from the limit: request it whole");
        assertEquals(true, at(server, POD + "securityContext.runAsNonRoot"));
    }

    @Test
    void prometheusScrapesTheServersManagementPortWhichTheServiceDoesNotOffer() {
        Map<String, Object> server = manifests.get("Deployment", "liftride");
        List<String> args = at(server, CONTAINER + "args");
        List<Map<String, Object>> ports = at(server, CONTAINER + "ports");
        Map<String, Object> management = ports.stream()
                .filter(p -> "management".equals(p.get("name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no port named management in " + ports));
        String port = management.get("containerPort").toString();
        assertEquals("8081", port);
        assertEquals(port, valueOf(args, "--management-port"));
        assertEquals("0.0.0.0", valueOf(args, "--management-host"), "reachable from a Prometheus pod");
        Map<String, String> scrape = at(server, "spec.template.metadata.annotations");
        assertEquals("true", scrape.get("prometheus.io/scrape"));
        assertEquals(port, scrape.get("prometheus.io/port"));
        assertEquals("/liftride/metrics", scrape.get("prometheus.io/path"));
        List<Map<String, Object>> offered = at(manifests.get("Service", "liftride"), "spec.ports");
        for (Map<String, Object> p : offered) {
            assertFalse(List.of(port, "management").contains(p.get("targetPort").toString()), "Service offers " + p);
            assertFalse(port.equals(p.get("port").toString()), "Service offers " + p);
        }
    }

    @Test
    void theBudgetAndTheServiceSelectTheServersPodsAndLeaveOneUp() {
        Map<String, Object> server = manifests.get("Deployment", "liftride");
        Map<String, Object> labels = at(server, "spec.template.metadata.labels");
        Map<String, Object> budget = manifests.get("PodDisruptionBudget", "liftride");
        Map<String, Object> service = manifests.get("Service", "liftride");
        assertTrue(labels.entrySet().containsAll(((Map<?, ?>) at(budget, "spec.selector.matchLabels")).entrySet()));
        assertTrue(labels.entrySet().containsAll(((Map<?, ?>) at(service, "spec.selector")).entrySet()));
        int min = at(budget, "spec.minAvailable");
        assertTrue(min >= 1 && min < (int) at(server, "spec.replicas"), "a drain must be allowed, one must stay");
        assertEquals(8080, (int) at(service, "spec.ports.0.port"));
    }

    @Test
    void redisKeepsAnAppendOnlyFileOnItsOwnVolumeAndTheServersFindItThroughTheSecret() {
        Map<String, Object> redis = manifests.get("StatefulSet", "redis");
        List<String> args = at(redis, CONTAINER + "args");
        assertEquals("yes", valueOf(args, "--appendonly"));
        assertEquals("noeviction", valueOf(args, "--maxmemory-policy"));
        assertEquals("/data", valueOf(args, "--dir"));
        assertEquals("/data", at(redis, CONTAINER + "volumeMounts.0.mountPath"));
        assertEquals("data", at(redis, "spec.volumeClaimTemplates.0.metadata.name"));
        Map<String, Object> secret = manifests.get("Secret", "liftride-store");
        assertEquals("redis://redis:6379", at(secret, "stringData.LIFTRIDE_STORE"));
        Map<String, Object> server = manifests.get("Deployment", "liftride");
        assertEquals("liftride-store", at(server, CONTAINER + "envFrom.0.secretRef.name"));
    }

    @Test
    void kubernetesMdStatesWhatTheManifestsRequestInAllAndPerPod() throws Exception {
        String doc = Files.readString(Path.of("../../docs/kubernetes.md"));
        long[] total = new long[2];
        for (String[] workload : new String[][] {
            {"Deployment", "liftride", "spec.replicas"},
            {"StatefulSet", "redis", "spec.replicas"},
            {"Job", "liftride-load", "spec.parallelism"},
            {"Job", "liftride-merge", "spec.parallelism"}
        }) {
            Map<String, Object> resource = manifests.get(workload[0], workload[1]);
            long[] pod = podRequests(at(resource, "spec.template.spec"));
            Integer count = at(resource, workload[2]);
            int pods = count == null ? 1 : count;
            String row = "| " + pods + " | " + cpu(pod[0]) + " CPU, " + gib(pod[1]) + " GiB |";
            assertTrue(doc.contains(row), workload[1] + ": " + row);
            total[0] += pods * pod[0];
            total[1] += pods * pod[1];
        }
        String all = "request " + cpu(total[0]) + " CPU and " + gib(total[1]) + " GiB of memory in all";
        assertTrue(doc.contains(all), all);
    }

    /**
     * What the scheduler reserves for a pod, {CPU in millicores, memory in MiB}: its containers and sidecars
     * (init containers that restart always), or an init container and the sidecars started before it if that is
     * more.
     */
    private static long[] podRequests(Map<String, Object> spec) {
        long[] sidecars = new long[2];
        long[] most = new long[2];
        List<Map<String, Object>> inits = at(spec, "initContainers");
        for (Map<String, Object> c : inits == null ? List.<Map<String, Object>>of() : inits) {
            long[] r = requests(c);
            if ("Always".equals(c.get("restartPolicy"))) {
                sidecars[0] += r[0];
                sidecars[1] += r[1];
            } else {
                most[0] = Math.max(most[0], sidecars[0] + r[0]);
                most[1] = Math.max(most[1], sidecars[1] + r[1]);
            }
        }
        long[] main = sidecars.clone();
        List<Map<String, Object>> containers = at(spec, "containers");
        for (Map<String, Object> c : containers) {
            long[] r = requests(c);
            main[0] += r[0];
            main[1] += r[1];
        }
        return new long[] {Math.max(most[0], main[0]), Math.max(most[1], main[1])};
    }

    private static long[] requests(Map<String, Object> container) {
        String cpu = at(container, "resources.requests.cpu");
        String memory = at(container, "resources.requests.memory");
        long millis = cpu.endsWith("m") ? Long.parseLong(cpu.replace("m", "")) : Long.parseLong(cpu) * 1000;
        long mib = memory.endsWith("Gi")
                ? Long.parseLong(memory.replace("Gi", "")) * 1024
                : Long.parseLong(memory.replace("Mi", ""));
        return new long[] {millis, mib};
    }

    private static String cpu(long millis) {
        return new BigDecimal(millis).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    private static String gib(long mib) {
        return new BigDecimal(mib)
                .divide(new BigDecimal(1024), 2, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }
}
