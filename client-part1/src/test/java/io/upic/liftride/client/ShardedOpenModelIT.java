package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.ServerProbe;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.client.plan.Ramp;
import io.upic.liftride.client.plan.Shard;
import io.upic.liftride.server.embedded.EmbeddedServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --rate} and {@code --ramp} with {@code --shard K/2} against the real servlets on embedded Tomcat: each shard
 * sends all of its part, and the server stores exactly the whole plan's rides between them.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShardedOpenModelIT {

    private static final int SHARDS = 2;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        // 40 + 120 + 20 requests, every thread 100/s: about 1 s per shard
        "--rate, 800",
        // 200 requests in 1 s
        "--ramp, '100,300:1s'"
    })
    void everyShardSendsItsWholePartAndTheServerStoresExactlyThePlan(String flag, String value) throws Exception {
        LoadPlan whole = flag.equals("--ramp")
                ? Ramp.parse(value).forRun(8, 200, 1)
                : PhasePlan.fall2021().forRun(8, 200, 1);
        try (EmbeddedServer server = EmbeddedServer.start("127.0.0.1", 0)) {
            long before = stored(server);
            List<String> sent = new ArrayList<>();
            long successful = 0;
            for (int k = 1; k <= SHARDS; k++) {
                ClientRun run = ClientRun.of(
                        "-t",
                        "8",
                        "-s",
                        "200",
                        "-m",
                        "1",
                        "--baseline",
                        "0",
                        "-i",
                        server.baseUrl(),
                        flag,
                        value,
                        "--shard",
                        k + "/" + SHARDS);
                RunResult r = run.result();
                long planned = new Shard(k, SHARDS).of(whole).totalRequests();
                assertEquals(List.of(), r.problems(), run.output());
                assertEquals(planned, r.requests().planned(), run.output());
                assertEquals(planned, r.requests().successful(), run.output());
                assertEquals(0, run.exit(), run.output());
                successful += r.requests().successful();
                sent.add(k + "/" + SHARDS + ": " + r.requests().successful());
            }
            assertEquals(whole.totalRequests(), successful);
            assertEquals(whole.totalRequests(), stored(server) - before, "no ride stored twice, none missing");
            System.out.printf(
                    "%s %s -t 8 -s 200 -m 1, shards %s of %d planned%n", flag, value, sent, whole.totalRequests());
        }
    }

    private static long stored(EmbeddedServer server) throws Exception {
        return ServerProbe.statistics(server.baseUrl(), 2_000, 2_000)
                .ridesStored()
                .orElseThrow();
    }
}
