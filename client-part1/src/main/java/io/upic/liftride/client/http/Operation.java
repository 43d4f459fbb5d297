package io.upic.liftride.client.http;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The contract's operations ({@code swagger/skidata-api.yaml}) a run can send, named by their {@code operationId}: the
 * lift-ride POST and the GETs that read what it stores. Immutable and thread-safe.
 */
public enum Operation {
    WRITE_NEW_LIFT_RIDE("writeNewLiftRide", 201),
    GET_SKIER_DAY_VERTICAL("getSkierDayVertical", 200),
    GET_RESORT_SKIERS_DAY("getResortSkiersDay", 200),
    GET_SKIER_RESORT_TOTALS("getSkierResortTotals", 200);

    private final String operationId;
    private final int successStatus;

    Operation(String operationId, int successStatus) {
        this.operationId = operationId;
        this.successStatus = successStatus;
    }

    /** The contract's name of this operation. */
    public String operationId() {
        return operationId;
    }

    /** The status the contract answers a request for data that exists with (201 for the POST, 200 for a GET). */
    public int successStatus() {
        return successStatus;
    }

    /** Whether this is the ride POST, the one operation that stores. */
    public boolean writes() {
        return this == WRITE_NEW_LIFT_RIDE;
    }

    /**
     * The operation named {@code operationId}.
     *
     * @throws IllegalArgumentException naming the known ones, e.g. {@code unknown operation getResortz; operations:
     *     writeNewLiftRide, ...}
     */
    public static Operation of(String operationId) {
        for (Operation op : values()) {
            if (op.operationId.equals(operationId)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown operation " + operationId + "; operations: " + ids());
    }

    /** The operationIds, comma-separated, in declaration order. */
    public static String ids() {
        return Arrays.stream(values()).map(Operation::operationId).collect(Collectors.joining(", "));
    }
}
