package io.upic.liftride.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RetryPolicy;
import io.upic.liftride.client.plan.LoadPlan;
import io.upic.liftride.client.plan.PhasePlan;
import io.upic.liftride.cluster.Poll;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LiveFiguresTest {

    private static final RetryPolicy NO_WAIT = new RetryPolicy(6, 0, 0);

    @Test
    void afterTheRunEachPhasesLiveFiguresEqualItsAccount() {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 300, 10); // 2,700 requests
        // skiers 0 mod 3 get 503 on every attempt, 1 mod 3 time out on every attempt, the rest 201
        FakeSenders senders = new FakeSenders(
                (i, skier) -> {
                    if (skier % 3 == 1) {
                        throw new SocketTimeoutException("Read timed out");
                    }
                    return skier % 3 == 0 ? 503 : 201;
                },
                0);
        LoadEngine engine =
                LoadEngine.builder(plan, senders).retryPolicy(NO_WAIT).build();
        RunResult result = engine.run();

        List<LiveFigures> live = engine.live();
        assertEquals(3, live.size());
        for (int k = 0; k < live.size(); k++) {
            LiveFigures f = live.get(k);
            PhaseResult phase = result.phases().get(k);
            assertEquals(phase.name(), f.phase());
            assertEquals(plan.phases().get(k).requests(), f.sent());
            assertEquals(phase.requests().successful(), f.successful());
            assertEquals(phase.requests().failed(), f.failed());
            assertEquals(phase.requests().retries(), f.retries());
            assertEquals(
                    phase.failuresByCause().getOrDefault(503, 0L), f.failed(LiveFigures.Cause.STATUS_5XX), f.phase());
            assertEquals(
                    phase.failuresByCause().getOrDefault(AttemptCodes.TIMEOUT, 0L),
                    f.failed(LiveFigures.Cause.TIMEOUT),
                    f.phase());
            assertEquals(f.sent(), Arrays.stream(f.latencyBuckets()).sum(), "every ended request in one bucket");
            assertEquals(0, f.inFlight());
        }
        assertTrue(result.requests().failed() > 100 && result.requests().successful() > 100, result.toString());
    }

    @Test
    void aMixsFiguresComeOnePerOperationAndAddUpToEachOperationsAccount() {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 300, 10);
        Mix mix = Mix.parse("writeNewLiftRide=60,getSkierDayVertical=30,getResortSkiersDay=10");
        LoadEngine engine = LoadEngine.builder(plan, FakeSenders.always(201))
                .retryPolicy(NO_WAIT)
                .mix(mix)
                .seed(7L)
                .build();
        RunResult result = engine.run();

        List<LiveFigures> live = engine.live();
        assertEquals(plan.phases().size() * mix.weights().size(), live.size(), live.toString());
        for (Operation op : mix.weights().keySet()) {
            List<LiveFigures> ofOp =
                    live.stream().filter(f -> f.operation() == op).toList();
            assertEquals(plan.phases().size(), ofOp.size(), op.operationId());
            OperationStats account = result.operations().get(op);
            assertEquals(
                    account.requests(),
                    ofOp.stream().mapToLong(LiveFigures::sent).sum(),
                    op.operationId());
            assertEquals(
                    account.successful(),
                    ofOp.stream().mapToLong(LiveFigures::successful).sum(),
                    op.operationId());
            assertTrue(account.successful() > 100, account.toString());
        }
    }

    @Test
    void requestsAwaitingTheirAnswerAreSentAndInFlightButNotEnded() throws Exception {
        LoadPlan plan = PhasePlan.fall2021().forRun(8, 80, 10);
        CountDownLatch answer = new CountDownLatch(1);
        LoadEngine engine = LoadEngine.builder(
                        plan,
                        new FakeSenders(
                                (i, skier) -> {
                                    try {
                                        answer.await();
                                    } catch (InterruptedException e) {
                                        throw new InterruptedIOException();
                                    }
                                    return 201;
                                },
                                0))
                .retryPolicy(NO_WAIT)
                .build();
        FutureTask<RunResult> run = new FutureTask<>(engine::run);
        Thread runner = new Thread(run, "live-figures-test-run");
        runner.start();
        try {
            int startupThreads = plan.phases().get(0).threads();
            Poll.until(
                    "startup's threads waiting for their first answer",
                    Duration.ofSeconds(10),
                    () -> !engine.live().isEmpty() && engine.live().get(0).inFlight() == startupThreads);
            LiveFigures startup = engine.live().get(0);
            assertEquals(startupThreads, startup.sent());
            assertEquals(0, startup.successful() + startup.failed());
            assertEquals(0, Arrays.stream(startup.latencyBuckets()).sum());
        } finally {
            answer.countDown();
        }
        RunResult result = run.get();
        assertEquals(plan.totalRequests(), result.requests().successful());
        assertEquals(
                plan.totalRequests(),
                engine.live().stream().mapToLong(LiveFigures::successful).sum());
    }

    @Test
    void aRequestsLatencyRunsFromItsFirstAttemptToTheEndOfItsLastAndFallsInItsBucket() {
        LoadPlan plan = PhasePlan.fall2021().forRun(1, 2, 10); // 2 + 6 + 1 requests, one thread per phase
        long delay = 3_000_000; // each attempt takes at least 3 ms; the first of every request fails
        FakeSenders senders = new FakeSenders((i, skier) -> i % 2 == 0 ? 500 : 201, delay);
        LoadEngine engine =
                LoadEngine.builder(plan, senders).retryPolicy(NO_WAIT).build();
        engine.run();
        for (LiveFigures f : engine.live()) {
            long[] buckets = f.latencyBuckets();
            int fiveMillis = Arrays.binarySearch(LiveFigures.LATENCY_BOUNDS_NANOS, 5_000_000L);
            long under = Arrays.stream(buckets, 0, fiveMillis + 1).sum();
            assertEquals(0, under, f.phase() + ": two attempts of >= 3 ms each, none ends within 5 ms");
            assertEquals(f.successful(), Arrays.stream(buckets).sum());
            assertTrue(f.latencyNanosSum() >= f.successful() * 2 * delay, f.toString());
            assertEquals(f.successful(), f.retries(), "one retry per request");
        }
    }

    @Test
    void bucketsIncludeTheirUpperBound() {
        assertEquals(0, LiveFigures.bucketOf(0));
        assertEquals(0, LiveFigures.bucketOf(100_000));
        assertEquals(1, LiveFigures.bucketOf(100_001));
        int last = LiveFigures.LATENCY_BOUNDS_NANOS.length;
        assertEquals(last - 1, LiveFigures.bucketOf(10_000_000_000L));
        assertEquals(last, LiveFigures.bucketOf(10_000_000_001L));
        assertEquals(last, LiveFigures.bucketOf(Long.MAX_VALUE));
    }
}
