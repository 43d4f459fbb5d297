package io.upic.liftride.client.http.raw;

import io.upic.liftride.client.http.Operation;
import io.upic.liftride.client.http.RideSender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code raw} transport's sender: writes the POST the SDK would write into a reused buffer and sends it in
 * one write on its own kept-alive connection, so the client takes little CPU from a server it shares a machine
 * with. One instance per worker; not thread-safe.
 *
 * @param connection the worker's own connection
 * @param bytes      the request bytes every sender of the factory shares
 */
record RawRideSender(RawHttpConnection connection, RawRideSenderFactory bytes) implements RideSender {

    private static final byte[] SEASONS = ascii("/seasons/");
    private static final byte[] DAYS = ascii("/days/");
    private static final byte[] SKIERS = ascii("/skiers/");
    private static final byte[] CRLF_CRLF = ascii("\r\n\r\n");
    private static final byte[] IDEMPOTENCY_KEY = ascii("\r\nIdempotency-Key: ");
    private static final byte[] LIFT_ID = ascii("{\"liftID\":");
    private static final byte[] TIME = ascii(",\"time\":");
    private static final byte[] WAIT_TIME = ascii(",\"waitTime\":");
    private static final byte[] RESORTS = ascii("/resorts/");
    private static final byte[] DAY = ascii("/day/");
    private static final byte[] VERTICAL_RESORT = ascii("/vertical?resort=");
    private static final byte[] AND_SEASON = ascii("&season=");

    @Override
    public int send(
            int resortId, int seasonId, int dayId, int skierId, int liftId, int minute, int waitTime, String rideKey)
            throws IOException {
        byte[] b = connection.requestBuffer();
        int p = put(b, 0, bytes.postSkiers);
        p = putInt(b, p, resortId);
        p = put(b, p, SEASONS);
        p = putInt(b, p, seasonId);
        p = put(b, p, DAYS);
        p = putInt(b, p, dayId);
        p = put(b, p, SKIERS);
        p = putInt(b, p, skierId);
        p = put(b, p, bytes.postHeaders);
        int bodyLength = LIFT_ID.length
                + digits(liftId)
                + TIME.length
                + digits(minute)
                + WAIT_TIME.length
                + digits(waitTime)
                + 1;
        p = putInt(b, p, bodyLength);
        p = put(b, p, IDEMPOTENCY_KEY);
        p = putAscii(b, p, rideKey);
        p = put(b, p, CRLF_CRLF);
        p = put(b, p, LIFT_ID);
        p = putInt(b, p, liftId);
        p = put(b, p, TIME);
        p = putInt(b, p, minute);
        p = put(b, p, WAIT_TIME);
        p = putInt(b, p, waitTime);
        b[p++] = '}';
        return connection.exchange(p);
    }

    /** Writes the request of {@code op} (a GET) as the SDK writes it and sends it. */
    @Override
    public int get(Operation op, int resortId, int seasonId, int dayId, int skierId) throws IOException {
        byte[] b = connection.requestBuffer();
        int p = put(b, 0, bytes.get);
        switch (op) {
            case GET_SKIER_DAY_VERTICAL -> {
                p = putInt(b, put(b, p, SKIERS), resortId);
                p = putInt(b, put(b, p, SEASONS), seasonId);
                p = putInt(b, put(b, p, DAYS), dayId);
                p = putInt(b, put(b, p, SKIERS), skierId);
            }
            case GET_RESORT_SKIERS_DAY -> {
                p = putInt(b, put(b, p, RESORTS), resortId);
                p = putInt(b, put(b, p, SEASONS), seasonId);
                p = putInt(b, put(b, p, DAY), dayId);
                System.arraycopy(SKIERS, 0, b, p, SKIERS.length - 1); // no trailing slash
                p += SKIERS.length - 1;
            }
            case GET_SKIER_RESORT_TOTALS -> {
                p = putInt(b, put(b, p, SKIERS), skierId);
                p = putInt(b, put(b, p, VERTICAL_RESORT), resortId);
                p = putInt(b, put(b, p, AND_SEASON), seasonId);
            }
            default -> throw new IllegalArgumentException("not a GET: " + op.operationId());
        }
        return connection.exchange(put(b, p, bytes.getHeaders));
    }

    @Override
    public long retryAfterMillis() {
        return connection.retryAfterMillis();
    }

    @Override
    public void close() {
        connection.close();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static int put(byte[] b, int p, byte[] src) {
        System.arraycopy(src, 0, b, p, src.length);
        return p + src.length;
    }

    /** Writes the ASCII string {@code s} (a ride key: visible ASCII only) at {@code b[p]}. */
    private static int putAscii(byte[] b, int p, String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            b[p + i] = (byte) s.charAt(i);
        }
        return p + s.length();
    }

    /** Decimal digits of {@code v}, with a sign if negative. */
    static int digits(int v) {
        long x = v;
        int n = 1;
        if (x < 0) {
            n++;
            x = -x;
        }
        while (x >= 10) {
            x /= 10;
            n++;
        }
        return n;
    }

    /** Writes {@code v} in decimal at {@code b[p]} and returns the index after it. */
    static int putInt(byte[] b, int p, int v) {
        int end = p + digits(v);
        long x = Math.abs((long) v);
        int i = end;
        do {
            b[--i] = (byte) ('0' + x % 10);
            x /= 10;
        } while (x != 0);
        if (v < 0) {
            b[p] = '-';
        }
        return end;
    }
}
