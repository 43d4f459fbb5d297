package io.upic.liftride.client.part2.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.Fixtures;
import io.upic.liftride.client.engine.PhaseResult;
import io.upic.liftride.client.engine.Requests;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.part2.csv.ChunkPool;
import io.upic.liftride.client.report.RunSummary.Latency;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-worker recorders merged per phase and for the run, first attempts apart from retries. */
class RunMetricsTest {

    private static PhaseResult phase(
            int index, String name, int threads, long successful, long attempts, long latencySum) {
        return Fixtures.phase()
                .index(index)
                .name(name)
                .threads(threads)
                .requests(new Requests(successful, successful, 0, 0, attempts - successful, attempts))
                .latencyNanosSum(latencySum)
                .endNanos(2_000_000_000L)
                .build();
    }

    @Test
    void phasesAndFirstAttemptsAreMergedFromTheRightWorkersAgainstASortedReference() {
        ChunkPool pool = new ChunkPool(8, 100);
        // phase 0: two workers, first attempts only; phase 1: one worker with retries
        WorkerRecorder a = new WorkerRecorder(0, 0, pool);
        WorkerRecorder b = new WorkerRecorder(0, 1, pool);
        WorkerRecorder c = new WorkerRecorder(1, 0, pool);
        long[] aNanos = {1_000_000, 3_000_000, 5_000_000};
        long[] bNanos = {2_000_000, 4_000_000};
        for (long n : aNanos) {
            a.onAttempt(0, 0, n, 201, 1);
        }
        for (long n : bNanos) {
            b.onAttempt(0, 0, n, 201, 1);
        }
        c.onAttempt(0, 0, 10_000_000, 503, 1);
        c.onAttempt(0, 0, 20_000_000, 503, 2);
        c.onAttempt(0, 0, 30_000_000, 201, 3);
        c.onAttempt(0, 0, 7_000_000, 201, 1);
        for (WorkerRecorder w : List.of(a, b, c)) {
            w.close();
        }

        RunResult result = Fixtures.run(phase(0, "one", 2, 5, 5, 15_000_000), phase(1, "two", 1, 2, 4, 67_000_000))
                .planName("test")
                .numThreads(2)
                .wallNanos(4_000_000_000L)
                .build();
        RunMetrics m = RunMetrics.merge(List.of(a, b, c), result);

        ScopeStats one = m.phases().get(0);
        assertEquals(5, one.all().attempts());
        assertEquals(3.0, one.all().mean(), 1e-12);
        assertEquals(3.0, one.all().p50(), 1e-2); // 3,000 µs, bucket top 3,001
        assertEquals(5, one.first().attempts());

        ScopeStats two = m.phases().get(1);
        assertEquals(4, two.all().attempts());
        assertEquals(2, two.first().attempts());
        assertEquals((10 + 7) / 2.0, two.first().mean(), 1e-12);
        assertEquals(7.0, two.first().min(), 1e-12);
        assertEquals(10.0, two.first().max(), 1e-12);
        assertEquals(2, two.firstHistogram().getTotalCount());

        ScopeStats run = m.run();
        assertEquals(9, run.all().attempts());
        assertEquals(7, run.first().attempts());
        assertEquals(9, m.recordedAttempts());
        long[] all = {1, 3, 5, 2, 4, 10, 20, 30, 7};
        Arrays.sort(all);
        assertEquals(Arrays.stream(all).sum() / 9.0, run.all().mean(), 1e-12);
        assertEquals(LatencyHistogramsTest.nearestRank(all, 50), run.all().p50(), 0.01 * 7); // 7 ms, bucket within 0.1%
        assertEquals(30.0, run.all().max(), 1e-12);
        assertEquals(1.0, run.all().min(), 1e-12);
        assertEquals(10.0, run.first().max(), 1e-12);
        assertEquals(7 / 4.0, run.throughputPerSecond(), 1e-12); // successful / wall seconds
    }

    @Test
    void aPhaseWithoutAttemptsHasEmptyStatistics() {
        ChunkPool pool = new ChunkPool(8, 10);
        WorkerRecorder a = new WorkerRecorder(0, 0, pool);
        a.onAttempt(0, 0, 1_000_000, 201, 1);
        a.close();
        List<PhaseResult> phases = new ArrayList<>();
        phases.add(phase(0, "one", 1, 1, 1, 1_000_000));
        phases.add(Fixtures.phase()
                .index(1)
                .name("two")
                .threads(1)
                .requests(new Requests(5, 0, 0, 5, 0, 0))
                .started(false)
                .build());
        RunResult result = Fixtures.run(phases.toArray(PhaseResult[]::new))
                .planName("test")
                .numThreads(1)
                .wallNanos(1_000_000_000L)
                .stopped(true)
                .build();
        RunMetrics m = RunMetrics.merge(List.of(a), result);
        assertEquals(LatencyHistograms.EMPTY, m.phases().get(1).all());
        assertEquals(1, m.run().all().attempts());
    }

    @Test
    void theOpenModelAlsoMeasuresEveryAttemptFromItsRequestsIntendedSendAndTheClosedModelDoesNot() {
        ChunkPool pool = new ChunkPool(8, 10);
        WorkerRecorder open = new WorkerRecorder(0, 0, pool);
        // on time: sent at its slot, 1 ms answer
        open.onAttempt(0, 100_000_000L, 100_000_000L, 1_000_000, 201, 1);
        // a stall: due at 200 ms, sent 300 ms late, 2 ms answer -> 302 ms from intended, 2 ms actual
        open.onAttempt(0, 500_000_000L, 200_000_000L, 2_000_000, 503, 1);
        // its retry keeps the slot: started at 510 ms, 1 ms -> 311 ms from intended
        open.onAttempt(0, 510_000_000L, 200_000_000L, 1_000_000, 201, 2);
        open.close();
        RunResult result = Fixtures.run(Fixtures.phase()
                        .index(0)
                        .name("only")
                        .threads(1)
                        .requests(new Requests(2, 2, 0, 0, 1, 3))
                        .latencyNanosSum(4_000_000)
                        .endNanos(1_000_000_000L)
                        .offeredPerSecond(2.0)
                        .build())
                .planName("test")
                .numThreads(1)
                .wallNanos(1_000_000_000L)
                .build();
        RunMetrics m = RunMetrics.merge(List.of(open), result);
        Latency intended = m.run().fromIntended();
        assertEquals(3, intended.count());
        assertEquals(311.0, intended.max(), 1e-9);
        assertEquals((1 + 302 + 311) / 3.0, intended.mean(), 1e-9);
        assertEquals(2.0, m.run().all().max(), 1e-9, "the actual latency hides the stall");
        assertEquals(intended, m.phases().get(0).fromIntended());

        WorkerRecorder closed = new WorkerRecorder(0, 0, pool);
        closed.onAttempt(0, 0, 1_000_000, 201, 1);
        closed.close();
        RunResult closedResult = Fixtures.run(phase(0, "only", 1, 1, 1, 1_000_000))
                .planName("test")
                .numThreads(1)
                .wallNanos(1_000_000_000L)
                .build();
        RunMetrics c = RunMetrics.merge(List.of(closed), closedResult);
        assertEquals(null, c.run().fromIntended());
        assertEquals(null, c.phases().get(0).fromIntendedHistogram());
    }
}
