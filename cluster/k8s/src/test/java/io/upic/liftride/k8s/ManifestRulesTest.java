package io.upic.liftride.k8s;

import static io.upic.liftride.k8s.Manifests.at;
import static io.upic.liftride.k8s.Manifests.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.cli.MaxDuration;
import io.upic.liftride.client.cli.StartAt;
import io.upic.liftride.client.live.LiveEndpoint;
import io.upic.liftride.client.live.MetricsAddress;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.server.embedded.EmbeddedServer;
import io.upic.liftride.server.operations.OperatingSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The rules the shipped manifests must keep, read from the YAML itself and checked against the code's values. */
class ManifestRulesTest {

    private static final String POD = "spec.template.spec.";
    private static final String CONTAINER = POD + "containers.0.";

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
    void eachShardWritesItsOwnFolderOnTheSharedVolumeAndTheMergeReadsThemAll() {
        String out = valueOf(loadArgs, "--out");
        assertEquals("/results/shard-$(" + Shard.INDEX_VARIABLE + ")", out);
        Map<String, Object> merge = manifests.get("Job", "liftride-merge");
        List<String> mergeArgs = at(merge, CONTAINER + "args");
        int shards = at(load, "spec.completions");
        List<String> folders = IntStream.range(0, shards)
                .mapToObj(i -> out.replace("$(" + Shard.INDEX_VARIABLE + ")", Integer.toString(i)))
                .toList();
        assertEquals("merge", mergeArgs.get(0));
        assertEquals(folders, mergeArgs.subList(1, 1 + shards));
        assertEquals(0, (int) at(merge, "spec.backoffLimit"));
        for (Map<String, Object> job : List.of(load, merge)) {
            assertEquals("/results", at(job, CONTAINER + "volumeMounts.0.mountPath"));
            assertEquals("liftride-results", at(job, POD + "volumes.0.persistentVolumeClaim.claimName"));
        }
        Map<String, Object> claim = manifests.get("PersistentVolumeClaim", "liftride-results");
        assertEquals(List.of("ReadWriteMany"), at(claim, "spec.accessModes"), "shards run on several nodes");
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
}
