package io.upic.liftride.client.part2.csv;

import io.upic.liftride.client.http.AttemptCodes;
import io.upic.liftride.client.http.Operation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Formats attempts as CSV rows ({@link #HEADER}; docs/reports.md describes the columns) by hand into a reusable
 * byte buffer: no {@code String.format}, no {@code Locale}, no allocation per row, so the output is identical on
 * every machine. Latency is whole microseconds rounded half-up, written as milliseconds with three decimals; rows
 * come in per-worker blocks, not sorted by time. Not thread-safe: the writer thread owns one instance.
 */
public final class CsvRows {

    /** The file in each run folder. */
    public static final String FILE = "requests.csv";

    public static final String HEADER =
            "start_epoch_ms,request_type,latency_ms,response_code,phase,attempt,thread,send_delay_ms,operation";

    /** By {@link Operation} ordinal: the method and the operationId, encoded once. */
    private static final byte[][] METHODS = new byte[Operation.values().length][];

    private static final byte[][] OPERATION_IDS = new byte[Operation.values().length][];

    static {
        for (Operation op : Operation.values()) {
            METHODS[op.ordinal()] = ascii(op.writes() ? "POST" : "GET");
            OPERATION_IDS[op.ordinal()] = ascii(op.operationId());
        }
    }

    /** By -code: the names of {@link AttemptCodes}' attempts that got no status. */
    private static final byte[][] NAMED_ERRORS = new byte[5][];

    static {
        NAMED_ERRORS[-AttemptCodes.TIMEOUT] = ascii("timeout");
        NAMED_ERRORS[-AttemptCodes.CONNECTION_ERROR] = ascii("connection_error");
        NAMED_ERRORS[-AttemptCodes.CLIENT_ERROR] = ascii("client_error");
        NAMED_ERRORS[-AttemptCodes.INVALID_STATUS] = ascii("invalid_status");
    }

    private static final byte[] ERROR_PREFIX = ascii("error_");

    /** A row never exceeds this many bytes plus the phase name. */
    private static final int MAX_ROW_WITHOUT_PHASE =
            20 + 1 + 4 + 1 + 16 + 1 + 16 + 1 + 1 + 4 + 1 + 11 + 1 + 16 + 1 + longestOperationId() + 1;

    private final byte[][] phaseNames;
    private final byte[] buf;
    private final int maxRow;
    private int pos;

    /**
     * @param phaseNames  names by phase index
     * @param bufferBytes size of the row buffer; it is flushed to the stream when nearly full
     */
    public CsvRows(List<String> phaseNames, int bufferBytes) {
        this.phaseNames = new byte[phaseNames.size()][];
        int longest = 0;
        for (int i = 0; i < phaseNames.size(); i++) {
            this.phaseNames[i] = field(phaseNames.get(i)).getBytes(StandardCharsets.UTF_8);
            longest = Math.max(longest, this.phaseNames[i].length);
        }
        this.maxRow = MAX_ROW_WITHOUT_PHASE + longest;
        this.buf = new byte[Math.max(bufferBytes, 4 * maxRow)];
    }

    /** The header line (with its newline) as bytes. */
    public static byte[] headerLine() {
        return ascii(HEADER + "\n");
    }

    /** Appends every row of {@code chunk}, flushing to {@code out} as the buffer fills. */
    public void append(AttemptChunk chunk, OutputStream out) throws IOException {
        byte[] phase = phaseNames[chunk.phaseIndex];
        int thread = chunk.threadIndex;
        for (int i = 0, n = chunk.size; i < n; i++) {
            if (buf.length - pos < maxRow) {
                flushTo(out);
            }
            appendRow(chunk, i, phase, thread);
        }
    }

    /** Writes the buffered bytes to {@code out} (does not flush {@code out} itself). */
    public void flushTo(OutputStream out) throws IOException {
        if (pos > 0) {
            out.write(buf, 0, pos);
        }
        pos = 0;
    }

    private void appendRow(AttemptChunk c, int i, byte[] phase, int thread) {
        int op = c.operation[i];
        appendLong(c.startEpochMillis[i]);
        buf[pos++] = ',';
        appendBytes(METHODS[op]);
        buf[pos++] = ',';
        appendMillis(c.latencyMicros[i]);
        buf[pos++] = ',';
        appendCode(c.code[i]);
        buf[pos++] = ',';
        appendBytes(phase);
        buf[pos++] = ',';
        appendLong(c.attempt[i]);
        buf[pos++] = ',';
        appendLong(thread);
        buf[pos++] = ',';
        if (c.sendDelayMicros[i] >= 0) {
            appendMillis(c.sendDelayMicros[i]);
        }
        buf[pos++] = ',';
        appendBytes(OPERATION_IDS[op]);
        buf[pos++] = '\n';
    }

    /** Microseconds as milliseconds with three decimals: 1234 -> "1.234", 5 -> "0.005". */
    private void appendMillis(int micros) {
        long m = Math.max(0, micros);
        appendLong(m / 1000);
        buf[pos++] = '.';
        int frac = (int) (m % 1000);
        buf[pos++] = (byte) ('0' + frac / 100);
        buf[pos++] = (byte) ('0' + frac / 10 % 10);
        buf[pos++] = (byte) ('0' + frac % 10);
    }

    private void appendCode(int code) {
        if (code >= 0) {
            appendLong(code);
        } else if (code > -NAMED_ERRORS.length) {
            appendBytes(NAMED_ERRORS[-code]);
        } else {
            appendBytes(ERROR_PREFIX);
            appendLong(-code);
        }
    }

    private void appendBytes(byte[] b) {
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    /** Decimal digits of {@code v} (any long), no separators. */
    private void appendLong(long v) {
        if (v == Long.MIN_VALUE) {
            appendBytes(ascii(Long.toString(v)));
            return;
        }
        if (v < 0) {
            buf[pos++] = '-';
            v = -v;
        }
        if (v < 10) {
            buf[pos++] = (byte) ('0' + v);
            return;
        }
        int digits = 0;
        for (long t = v; t > 0; t /= 10) {
            digits++;
        }
        int end = pos + digits;
        for (int i = end - 1; i >= pos; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        pos = end;
    }

    /** The CSV field for {@code s}: as is, or quoted (RFC 4180) when it holds a comma, quote or line break. */
    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static int longestOperationId() {
        int longest = 0;
        for (Operation op : Operation.values()) {
            longest = Math.max(longest, op.operationId().length());
        }
        return longest;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
