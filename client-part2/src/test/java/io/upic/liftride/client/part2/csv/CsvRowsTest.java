package io.upic.liftride.client.part2.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CsvRowsTest {

    private Locale saved;

    @BeforeEach
    void germanDefaultLocale() {
        saved = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY); // decimal comma, '.' grouping: must not leak into the CSV
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(saved);
    }

    private final CsvRows rows = new CsvRows(List.of("startup", "peak", "cool,down"), 4096);

    /** One ride POST of the closed model as the writer formats it. */
    private String row(long epochMillis, int latencyMicros, int code, int phase, int attempt, int thread) {
        return row(epochMillis, latencyMicros, code, phase, attempt, thread, -1);
    }

    private String row(long epochMillis, int latencyMicros, int code, int phase, int attempt, int thread, int delay) {
        return row(Operation.WRITE_NEW_LIFT_RIDE, epochMillis, latencyMicros, code, phase, attempt, thread, delay);
    }

    private String row(
            Operation op,
            long epochMillis,
            int latencyMicros,
            int code,
            int phase,
            int attempt,
            int thread,
            int delay) {
        AttemptChunk c = new ChunkPool(1, 1).acquire(phase, thread);
        c.add(op, epochMillis, 0, latencyMicros, code, attempt, delay);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            rows.append(c, out);
            rows.flushTo(out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void latencyIsMillisecondsWithThreeMicrosecondDecimalsAndADotWhateverTheLocale() {
        assertEquals(
                "1700000000123,POST,1.234,201,peak,1,7,,writeNewLiftRide\n",
                row(1_700_000_000_123L, 1_234, 201, 1, 1, 7));
        assertEquals("5,POST,0.005,201,startup,1,0,,writeNewLiftRide\n", row(5, 5, 201, 0, 1, 0));
        assertEquals("5,POST,0.000,201,startup,1,0,,writeNewLiftRide\n", row(5, 0, 201, 0, 1, 0));
        assertEquals("5,POST,0.050,201,startup,1,0,,writeNewLiftRide\n", row(5, 50, 201, 0, 1, 0));
        assertEquals("5,POST,1234.567,201,startup,1,0,,writeNewLiftRide\n", row(5, 1_234_567, 201, 0, 1, 0));
        assertEquals("5,POST,10.000,201,startup,1,0,,writeNewLiftRide\n", row(5, 10_000, 201, 0, 1, 0));
    }

    @Test
    void errorKindsAreWrittenByNameAndStatusesAsNumbers() {
        assertEquals("9,POST,2.000,503,peak,2,3,,writeNewLiftRide\n", row(9, 2_000, 503, 1, 2, 3));
        assertEquals(
                "9,POST,10000.000,timeout,peak,6,3,,writeNewLiftRide\n",
                row(9, 10_000_000, AttemptCodes.TIMEOUT, 1, 6, 3));
        assertEquals(
                "9,POST,0.100,connection_error,peak,1,3,,writeNewLiftRide\n",
                row(9, 100, AttemptCodes.CONNECTION_ERROR, 1, 1, 3));
        assertEquals(
                "9,POST,0.100,client_error,peak,1,3,,writeNewLiftRide\n",
                row(9, 100, AttemptCodes.CLIENT_ERROR, 1, 1, 3));
        assertEquals(
                "9,POST,0.100,invalid_status,peak,1,3,,writeNewLiftRide\n",
                row(9, 100, AttemptCodes.INVALID_STATUS, 1, 1, 3));
        assertEquals("9,POST,0.100,error_7,peak,1,3,,writeNewLiftRide\n", row(9, 100, -7, 1, 1, 3));
    }

    @Test
    void theOpenModelAddsTheSendDelayInTheLatencyStyleAndTheClosedModelLeavesItEmpty() throws Exception {
        assertEquals("9,POST,2.000,201,peak,1,3,0.000,writeNewLiftRide\n", row(9, 2_000, 201, 1, 1, 3, 0));
        assertEquals("9,POST,2.000,201,peak,1,3,812.345,writeNewLiftRide\n", row(9, 2_000, 201, 1, 1, 3, 812_345));
        assertEquals("9,POST,2.000,503,peak,2,3,,writeNewLiftRide\n", row(9, 2_000, 503, 1, 2, 3, -1));
        // through a chunk, as the writer does: the delay travels with its row
        ChunkPool pool = new ChunkPool(4, 1);
        AttemptChunk c = pool.acquire(1, 5);
        c.add(Operation.WRITE_NEW_LIFT_RIDE, 10, 0, 1_500, 201, 1, 250);
        c.add(11, 0, 1_500, 201, 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        rows.append(c, out);
        rows.flushTo(out);
        assertEquals(
                "10,POST,1.500,201,peak,1,5,0.250,writeNewLiftRide\n11,POST,1.500,201,peak,1,5,,writeNewLiftRide\n",
                out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void eachRowNamesItsOperationLastAndItsMethodAsTheRequestType() {
        assertEquals(
                "9,GET,0.800,200,peak,1,3,0.020,getSkierDayVertical\n",
                row(Operation.GET_SKIER_DAY_VERTICAL, 9, 800, 200, 1, 1, 3, 20));
        assertEquals(
                "9,GET,0.800,404,peak,2,3,,getResortSkiersDay\n",
                row(Operation.GET_RESORT_SKIERS_DAY, 9, 800, 404, 1, 2, 3, -1));
        assertEquals(
                "9,POST,0.800,201,peak,1,3,,writeNewLiftRide\n",
                row(Operation.WRITE_NEW_LIFT_RIDE, 9, 800, 201, 1, 1, 3, -1));
    }

    @Test
    void aPhaseNameWithACommaIsQuoted() {
        assertEquals("9,POST,0.100,201,\"cool,down\",1,0,,writeNewLiftRide\n", row(9, 100, 201, 2, 1, 0));
    }

    @Test
    void theHeaderNamesTheColumnsInOrder() {
        assertEquals(
                "start_epoch_ms,request_type,latency_ms,response_code,phase,attempt,thread,send_delay_ms,operation\n",
                new String(CsvRows.headerLine(), StandardCharsets.US_ASCII));
    }

    @Test
    void aChunkLargerThanTheBufferIsWrittenCompletelyInOrder() throws Exception {
        CsvRows small = new CsvRows(List.of("p"), 64); // the buffer holds only a few rows
        ChunkPool pool = new ChunkPool(1000, 1);
        AttemptChunk c = pool.acquire(0, 2);
        for (int i = 0; i < 1000; i++) {
            c.add(1_000_000L + i, 0, i, 201, 1);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        small.append(c, out);
        small.flushTo(out);
        String[] lines = out.toString(StandardCharsets.US_ASCII).split("\n");
        assertEquals(1000, lines.length);
        for (int i = 0; i < 1000; i++) {
            assertEquals(
                    (1_000_000L + i) + ",POST," + String.format(Locale.ROOT, "%d.%03d", i / 1000, i % 1000)
                            + ",201,p,1,2,,writeNewLiftRide",
                    lines[i]);
        }
    }
}
