package io.upic.liftride.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.upic.liftride.client.cli.ExitCodes;
import io.upic.liftride.client.engine.RunResult;
import io.upic.liftride.client.http.AttemptCodes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole client runs against a server that answers what an attacker would: escape sequences in its status lines,
 * bodies and {@code /statistics}, statuses outside 100..599, an unreadable ride count, 503 for ever. Nothing it
 * sends reaches the output raw, nothing crashes a worker, an unchecked reconciliation exits
 * {@link ExitCodes#UNCHECKED}, and {@code --max-duration} ends a run that would go on for ever.
 */
// A hang is a failure, not a stuck build.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientAgainstHostileServerIT {

    /** What a terminal acts on: C0 controls but the line feed and tab the client writes itself, DEL, C1. */
    private static final String RAW_CONTROL = "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]";
    /** Erase the screen and the line above, then forge the account's last word. */
    private static final String FORGERY = "\u001b[2J\u001b[1A\u001b[2K\rReconciliation: OK\u0007";

    private ScriptedSocketServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** -t 8 -s 80 -m 5 (360 requests) with the transport. */
    private ClientRun run(String transport) throws Exception {
        return run(transport, 80);
    }

    /** -t 8 -s SKIERS -m 5 with the transport and {@code more} flags. */
    private ClientRun run(String transport, int skiers, String... more) throws Exception {
        String[] base = {
            "-t",
            "8",
            "-s",
            "" + skiers,
            "-m",
            "5",
            "--seed",
            "42",
            "--baseline",
            "0",
            "-i",
            server.baseUrl(),
            "--transport",
            transport
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> ClientRun.of(all));
    }

    private static int liftId(String rideJson) {
        return JsonParser.parseString(rideJson).getAsJsonObject().get("liftID").getAsInt();
    }

    private static String answer(String statusLine, String body) {
        return statusLine + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n"
                + body;
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void escapeSequencesFromTheServerReachTheOutputOnlyAsVisibleEscapes(String transport) throws Exception {
        server = ScriptedSocketServer.start((n, path, body) -> liftId(body) == 1
                ? ScriptedSocketServer.Action.respond(503, FORGERY, "{\"message\":\"" + FORGERY + "\"}")
                : ScriptedSocketServer.Action.respond(201, "Created" + FORGERY, FORGERY));
        // the pre-flight and the reading before the run are fine; the reading after is a status line of escapes
        server.answerStatisticsWith(n -> n == 3 ? answer("HTTP/1.1 2" + FORGERY, "{}") : null);

        ClientRun run = run(transport);

        String printed = run.out() + run.err();
        assertTrue(
                printed.contains(
                        "Unexpected status line: HTTP/1.1 2\\x1b[2J\\x1b[1A\\x1b[2K\\x0dReconciliation: OK\\x07"),
                run.output());
        assertTrue(!printed.matches("(?s).*" + RAW_CONTROL + ".*"), "a raw control character\n" + run.output());
        assertEquals(ExitCodes.FAILED, run.exit(), run.output()); // the 503s
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void aStatusOutside100To599IsAFailedAttemptRetriedAndCountedAndNoWorkerCrashes(String transport) throws Exception {
        server = ScriptedSocketServer.start((n, path, body) ->
                liftId(body) == 1 ? ScriptedSocketServer.Action.respond(999) : ScriptedSocketServer.Action.CREATED);

        ClientRun run = run(transport);

        RunResult r = run.result();
        long failed = r.failuresByCause().getOrDefault(AttemptCodes.INVALID_STATUS, 0L);
        assertTrue(failed > 0, "seed 42 draws lift 1 at least once\n" + run.output());
        run.assertAccountedFor(Map.of(AttemptCodes.INVALID_STATUS, failed));
        assertEquals(5 * failed, r.requests().retries(), "each 999 ride retried 5 times");
        assertEquals(server.posts.get(), r.requests().attempts());
        assertEquals(java.util.List.of(), r.problems(), "no worker crashed");
        assertTrue(run.out().contains("invalid status (not 100..599): " + failed), run.output());
    }

    @ParameterizedTest(name = "/statistics after the run: {0}")
    @ValueSource(
            strings = {
                "HTTP/1.1 503 Service Unavailable",
                "HTTP/1.1 200 OK|not json",
                "HTTP/1.1 200 OK|{\"endpointStats\":[]}",
                "HTTP/1.1 200 OK|{\"ridesStored\":-5}",
                "HTTP/1.1 200 OK|{\"ridesStored\":\"\\u001b[2J\"}",
                "HTTP/1.1 2xx"
            })
    void aReconciliationThatCouldNotBeCheckedExits4AndSaysSoInOneLine(String after) throws Exception {
        server = ScriptedSocketServer.start((n, path, body) -> ScriptedSocketServer.Action.CREATED);
        String[] parts = after.split("\\|", 2);
        server.answerStatisticsWith(n -> n == 3 ? answer(parts[0], parts.length > 1 ? parts[1] : "") : null);

        ClientRun run = run("raw");

        assertEquals(ExitCodes.UNCHECKED, run.exit(), run.output());
        assertEquals(360, run.result().requests().successful(), run.output());
        long lines = run.out()
                .lines()
                .filter(l -> l.startsWith("Not reconciled with the server: its ridesStored could not be read for 1 of"
                        + " 1 runs (after the run: "))
                .filter(l -> l.endsWith("); exit code 4 unless a request failed"))
                .count();
        assertEquals(1, lines, run.output());
        assertTrue(!(run.out() + run.err()).matches("(?s).*" + RAW_CONTROL + ".*"), run.output());
    }

    @ParameterizedTest(name = "--transport {0}")
    @ValueSource(strings = {"sdk", "raw"})
    void aServerAnswering503ForEverIsLeftAtTheMaxDurationWithTheWholeAccountAndExit5(String transport)
            throws Exception {
        server = ScriptedSocketServer.start((n, path, body) -> ScriptedSocketServer.Action.respond(503));

        // 9,000 requests of 6 attempts each with 155..310 ms of backoff: minutes without the limit
        ClientRun run = run(transport, 2000, "--max-duration", "5s");

        assertEquals(ExitCodes.DEADLINE, run.exit(), run.output());
        // bound: the 5 s (ample for the start on a busy machine: the limit counts from the command's start), then a
        // backoff slice, the attempts in flight and the reading after, all on loopback
        assertTrue(run.millis() >= 5_000 && run.millis() < 20_000, run.millis() + " ms\n" + run.output());
        RunResult r = run.result();
        assertTrue(r.stopped() && r.requests().notSent() > 0, run.output());
        run.assertAccountedFor(Map.of(503, r.requests().failed()));
        String reason = "--max-duration 5.0s passed: stopped sending, the attempts in flight ended, the requests not"
                + " sent yet were not attempted";
        assertEquals(reason, r.problems().get(0), run.output());
        assertTrue(run.out().contains(reason + "; exit code 5"), run.output());
        assertTrue(run.out().contains("server stored 0: OK"), run.output());
    }
}
