package io.upic.liftride.client.http.raw;

import io.upic.liftride.client.http.Operation;

/** Encodes the contract's GETs as the SDK sends them. Immutable and thread-safe. */
final class RawGets {

    private static final byte[] SKIERS = RawRideSender.ascii("/skiers/");
    private static final byte[] RESORTS = RawRideSender.ascii("/resorts/");
    private static final byte[] SEASONS = RawRideSender.ascii("/seasons/");
    private static final byte[] DAYS = RawRideSender.ascii("/days/");
    private static final byte[] DAY = RawRideSender.ascii("/day/");
    private static final byte[] VERTICAL_RESORT = RawRideSender.ascii("/vertical?resort=");
    private static final byte[] AND_SEASON = RawRideSender.ascii("&season=");

    private final byte[] getContextPath;
    private final byte[] headers;

    /**
     * @param getContextPath {@code GET <context path>}
     * @param headers        {@code  HTTP/1.1\r\nHost: ...\r\n\r\n}
     */
    RawGets(byte[] getContextPath, byte[] headers) {
        this.getContextPath = getContextPath;
        this.headers = headers;
    }

    /** Writes the request of {@code op} (a GET) at {@code b[0]} and returns its length. */
    int encode(byte[] b, Operation op, int resortId, int seasonId, int dayId, int skierId) {
        int p = put(b, 0, getContextPath);
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
                p = put(b, p, SKIERS, SKIERS.length - 1);
            }
            case GET_SKIER_RESORT_TOTALS -> {
                p = putInt(b, put(b, p, SKIERS), skierId);
                p = putInt(b, put(b, p, VERTICAL_RESORT), resortId);
                p = putInt(b, put(b, p, AND_SEASON), seasonId);
            }
            default -> throw new IllegalArgumentException("not a GET: " + op.operationId());
        }
        return put(b, p, headers);
    }

    private static int putInt(byte[] b, int p, int v) {
        return RawRideSender.putInt(b, p, v);
    }

    private static int put(byte[] b, int p, byte[] src) {
        return put(b, p, src, src.length);
    }

    private static int put(byte[] b, int p, byte[] src, int length) {
        System.arraycopy(src, 0, b, p, length);
        return p + length;
    }
}
