package io.upic.liftride.server.validation;

import static io.upic.liftride.server.validation.Rules.LIFT_ID;
import static io.upic.liftride.server.validation.Rules.TIME;
import static io.upic.liftride.server.validation.Rules.WAIT_TIME;
import static io.upic.liftride.server.validation.Rules.YEAR;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.upic.liftride.server.model.LiftRide;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Validates request bodies (LiftRide, SeasonBody) against {@link Rules}: from bytes to a value or a
 * 400 naming the field, the value and the rule; never throws. Stateless and thread-safe.
 *
 * <p>Gson's {@link JsonReader} runs in {@link Strictness#STRICT} mode (RFC 8259): its lenient mode
 * would accept unquoted keys, single quotes, comments, NaN and several top-level values. The reader
 * is streaming and iterative, so deep nesting cannot overflow the stack; {@link
 * Rules#MAX_JSON_NESTING} bounds it anyway (in ignored fields; known fields refuse any array or object).
 *
 * <p>LiftRide bodies first try a fast path on the raw bytes ({@link #fastLiftRide}): a hand-written
 * scanner for the one shape the load test sends, {@code {"liftID":N,"time":N,"waitTime":N}} with
 * JSON whitespace anywhere and the members in any order. It accepts only bodies that Gson's strict
 * reader accepts as the same ride; everything else (unknown or escaped names, duplicates,
 * non-integers, values out of range, any syntax error, non-ASCII) falls back to the Gson path, which
 * alone writes every rejection, so no rule and no message differs between the two.
 */
public final class JsonBodies {
    private static final int ABSENT = Integer.MIN_VALUE;
    private static final long NOT_AN_INTEGER = Long.MIN_VALUE;
    private static final String RIDE_EXAMPLE = "{\"liftID\": 21, \"time\": 217, \"waitTime\": 3}";
    private static final String SEASON_EXAMPLE = "{\"year\": \"2019\"}";

    private JsonBodies() {}

    /** A LiftRide from the first {@code length} bytes of {@code body}, which must be UTF-8. */
    public static Result<LiftRide> liftRide(byte[] body, int length) {
        checkLength(body, length);
        LiftRide fast = fastLiftRide(body, length);
        if (fast != null) {
            return Result.ok(fast);
        }
        String json = utf8(body, length);
        return json == null ? Result.badRequest("body must be UTF-8 encoded JSON") : gsonLiftRide(json);
    }

    /** A LiftRide: liftID 1..60 and time 1..420 required, waitTime 0..10 optional, other fields ignored. */
    public static Result<LiftRide> liftRide(String json) {
        if (isAscii(json)) {
            byte[] bytes = json.getBytes(StandardCharsets.ISO_8859_1);
            LiftRide fast = fastLiftRide(bytes, bytes.length);
            if (fast != null) {
                return Result.ok(fast);
            }
        }
        return gsonLiftRide(json);
    }

    /**
     * The fast path: the ride in {@code body[0..length)} if it is a JSON object of only liftID, time
     * and optionally waitTime (plain ASCII names without escapes, each at most once), each an integer
     * {@code -?(0|[1-9][0-9]*)} of at most 10 digits within its rule's range, with nothing but JSON
     * whitespace around the tokens; else null, and the caller asks Gson ({@link #gsonLiftRide}), which
     * accepts the same bodies as the same rides and explains everything else. Allocates only the ride.
     */
    static LiftRide fastLiftRide(byte[] body, int length) {
        int i = skipWhitespace(body, 0, length);
        if (i >= length || body[i] != '{') {
            return null;
        }
        int liftId = ABSENT;
        int time = ABSENT;
        int waitTime = ABSENT;
        i = skipWhitespace(body, i + 1, length);
        while (true) {
            if (i >= length || body[i] != '"') {
                return null; // also "{}": the Gson path names the missing field
            }
            int nameStart = ++i;
            while (i < length && body[i] != '"') {
                i++;
            }
            int field = fieldOf(body, nameStart, i - nameStart); // a backslash or any other byte: no known name
            if (field < 0 || i >= length) {
                return null;
            }
            i = skipWhitespace(body, i + 1, length);
            if (i >= length || body[i] != ':') {
                return null;
            }
            i = skipWhitespace(body, i + 1, length);
            boolean negative = i < length && body[i] == '-';
            if (negative) {
                i++;
            }
            int digitsStart = i;
            long value = 0;
            while (i < length && body[i] >= '0' && body[i] <= '9') {
                if (i - digitsStart == 10) {
                    return null; // 11 digits or more
                }
                value = value * 10 + (body[i] - '0');
                i++;
            }
            int digits = i - digitsStart;
            if (digits == 0 || (digits > 1 && body[digitsStart] == '0')) {
                return null; // no digits, or a leading zero (not JSON)
            }
            if (negative) {
                value = -value;
            }
            switch (field) {
                case FIELD_LIFT_ID:
                    if (liftId != ABSENT || !LIFT_ID.contains(value)) {
                        return null;
                    }
                    liftId = (int) value;
                    break;
                case FIELD_TIME:
                    if (time != ABSENT || !TIME.contains(value)) {
                        return null;
                    }
                    time = (int) value;
                    break;
                default:
                    if (waitTime != ABSENT || !WAIT_TIME.contains(value)) {
                        return null;
                    }
                    waitTime = (int) value;
            }
            i = skipWhitespace(body, i, length); // a fraction, an exponent or any other byte fails below
            if (i >= length) {
                return null;
            }
            if (body[i] == '}') {
                break;
            }
            if (body[i] != ',') {
                return null;
            }
            i = skipWhitespace(body, i + 1, length);
        }
        if (skipWhitespace(body, i + 1, length) != length || liftId == ABSENT || time == ABSENT) {
            return null;
        }
        return new LiftRide(liftId, time, waitTime == ABSENT ? LiftRide.NO_WAIT_TIME : waitTime);
    }

    private static final int FIELD_LIFT_ID = 0;
    private static final int FIELD_TIME = 1;
    private static final int FIELD_WAIT_TIME = 2;

    /** Which known field {@code body[start..start+length)} names exactly, or -1. */
    private static int fieldOf(byte[] body, int start, int length) {
        switch (length) {
            case 4:
                return body[start] == 't' && body[start + 1] == 'i' && body[start + 2] == 'm' && body[start + 3] == 'e'
                        ? FIELD_TIME
                        : -1;
            case 6:
                return body[start] == 'l'
                                && body[start + 1] == 'i'
                                && body[start + 2] == 'f'
                                && body[start + 3] == 't'
                                && body[start + 4] == 'I'
                                && body[start + 5] == 'D'
                        ? FIELD_LIFT_ID
                        : -1;
            case 8:
                return body[start] == 'w'
                                && body[start + 1] == 'a'
                                && body[start + 2] == 'i'
                                && body[start + 3] == 't'
                                && body[start + 4] == 'T'
                                && body[start + 5] == 'i'
                                && body[start + 6] == 'm'
                                && body[start + 7] == 'e'
                        ? FIELD_WAIT_TIME
                        : -1;
            default:
                return -1;
        }
    }

    /** The index of the first byte at or after {@code i} that is not JSON whitespace, or {@code length}. */
    private static int skipWhitespace(byte[] body, int i, int length) {
        while (i < length) {
            byte c = body[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
            i++;
        }
        return length;
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The LiftRide fields, in the order of {@link #rideFieldIndex}. */
    private static final IntRule[] RIDE_FIELDS = {LIFT_ID, TIME, WAIT_TIME};

    /** 0 liftID, 1 time, 2 waitTime, -1 any other name. */
    private static int rideFieldIndex(String name) {
        switch (name) {
            case "liftID":
                return 0;
            case "time":
                return 1;
            case "waitTime":
                return 2;
            default:
                return -1;
        }
    }

    /** The complete LiftRide validation with Gson's strict reader: every rejection is written here. */
    static Result<LiftRide> gsonLiftRide(String json) {
        if (isJsonWhitespace(json)) {
            return Result.badRequest("body is required: a JSON object such as " + RIDE_EXAMPLE);
        }
        try {
            JsonReader reader = strictReader(json);
            Rejection notObject = expectObject(reader);
            if (notObject != null) {
                return Result.rejected(notObject);
            }
            // values[i] belongs to RIDE_FIELDS[i]: liftID, time, waitTime
            int[] values = {ABSENT, ABSENT, ABSENT};
            IgnoredFields ignored = new IgnoredFields();
            reader.beginObject();
            while (reader.hasNext()) {
                String name = reader.nextName();
                int index = rideFieldIndex(name);
                if (index >= 0) {
                    if (values[index] != ABSENT) {
                        return duplicate(name);
                    }
                    Result<Integer> field = readInt(reader, RIDE_FIELDS[index]);
                    if (!field.isOk()) {
                        return Result.rejected(field.rejection());
                    }
                    values[index] = field.value();
                } else {
                    Result<LiftRide> skipped = ignored.skip(reader, name);
                    if (skipped != null) {
                        return skipped;
                    }
                }
            }
            reader.endObject();
            Rejection trailing = expectEnd(reader);
            if (trailing != null) {
                return Result.rejected(trailing);
            }
            if (values[0] == ABSENT) {
                return Result.rejected(LIFT_ID.missing());
            }
            if (values[1] == ABSENT) {
                return Result.rejected(TIME.missing());
            }
            return Result.ok(
                    new LiftRide(values[0], values[1], values[2] == ABSENT ? LiftRide.NO_WAIT_TIME : values[2]));
        } catch (IOException | RuntimeException malformed) {
            return Result.badRequest("body must be valid JSON: " + explain(malformed));
        }
    }

    /** A SeasonBody's year from the first {@code length} bytes of {@code body}, which must be UTF-8. */
    public static Result<Integer> seasonYear(byte[] body, int length) {
        String json = utf8(body, length);
        return json == null ? Result.badRequest("body must be UTF-8 encoded JSON") : seasonYear(json);
    }

    /** A SeasonBody's year: {@code year} required, a string of exactly 4 ASCII digits; other fields ignored. */
    public static Result<Integer> seasonYear(String json) {
        if (isJsonWhitespace(json)) {
            return Result.badRequest("body is required: a JSON object such as " + SEASON_EXAMPLE);
        }
        try {
            JsonReader reader = strictReader(json);
            Rejection notObject = expectObject(reader);
            if (notObject != null) {
                return Result.rejected(notObject);
            }
            int year = ABSENT;
            IgnoredFields ignored = new IgnoredFields();
            reader.beginObject();
            while (reader.hasNext()) {
                String name = reader.nextName();
                if (name.equals(YEAR.name())) {
                    if (year != ABSENT) {
                        return duplicate(name);
                    }
                    JsonToken token = reader.peek();
                    if (token != JsonToken.STRING) {
                        return Result.rejected(YEAR.reject(describeValue(reader, token)));
                    }
                    String text = reader.nextString();
                    year = YEAR.parseText(text);
                    if (year == IntRule.INVALID) {
                        return Result.rejected(YEAR.rejectText(text));
                    }
                } else {
                    Result<Integer> skipped = ignored.skip(reader, name);
                    if (skipped != null) {
                        return skipped;
                    }
                }
            }
            reader.endObject();
            Rejection trailing = expectEnd(reader);
            if (trailing != null) {
                return Result.rejected(trailing);
            }
            return year == ABSENT ? Result.rejected(YEAR.missing()) : Result.ok(year);
        } catch (IOException | RuntimeException malformed) {
            return Result.badRequest("body must be valid JSON: " + explain(malformed));
        }
    }

    private static JsonReader strictReader(String json) {
        JsonReader reader = new JsonReader(new StringReader(json));
        reader.setStrictness(Strictness.STRICT);
        return reader;
    }

    private static Rejection expectObject(JsonReader reader) throws IOException {
        JsonToken token = reader.peek();
        if (token == JsonToken.BEGIN_OBJECT) {
            return null;
        }
        return Rejection.badRequest("body must be a JSON object, got " + describeValue(reader, token));
    }

    /** Null when only whitespace follows the object; strict mode reports anything else as malformed. */
    private static Rejection expectEnd(JsonReader reader) {
        try {
            if (reader.peek() == JsonToken.END_DOCUMENT) {
                return null;
            }
        } catch (IOException | RuntimeException afterObject) {
            // falls through: whatever follows the object is the problem
        }
        return Rejection.badRequest("body must be one JSON object with nothing after it");
    }

    /**
     * Skips the next value (of an ignored field), iteratively; false when it nests arrays or objects
     * deeper than {@link Rules#MAX_JSON_NESTING}.
     */
    private static boolean skipValue(JsonReader reader) throws IOException {
        int depth = 0;
        do {
            switch (reader.peek()) {
                case BEGIN_ARRAY:
                    if (++depth > Rules.MAX_JSON_NESTING) {
                        return false;
                    }
                    reader.beginArray();
                    break;
                case BEGIN_OBJECT:
                    if (++depth > Rules.MAX_JSON_NESTING) {
                        return false;
                    }
                    reader.beginObject();
                    break;
                case END_ARRAY:
                    depth--;
                    reader.endArray();
                    break;
                case END_OBJECT:
                    depth--;
                    reader.endObject();
                    break;
                case NAME:
                    reader.nextName(); // duplicates inside ignored values are not our business
                    break;
                case STRING:
                case NUMBER:
                    reader.nextString(); // not skipValue(): that skips strings without checking them
                    break;
                case BOOLEAN:
                    reader.nextBoolean();
                    break;
                default:
                    reader.nextNull();
            }
        } while (depth > 0);
        return true;
    }

    private static <T> Result<T> tooDeep() {
        return Result.badRequest(
                "body must not nest arrays or objects more than " + Rules.MAX_JSON_NESTING + " levels deep");
    }

    /** An integer field: a JSON number without fraction or exponent, within the rule's range. */
    private static Result<Integer> readInt(JsonReader reader, IntRule rule) throws IOException {
        JsonToken token = reader.peek();
        if (token == JsonToken.NUMBER) {
            String literal = reader.nextString();
            long value = parseInteger(literal);
            if (value != NOT_AN_INTEGER && rule.contains(value)) {
                return Result.ok((int) value);
            }
            return Result.rejected(rule.rejectJson(Values.literal(literal)));
        }
        return Result.rejected(rule.rejectJson(describeValue(reader, token)));
    }

    /** A JSON value as the message's "got ...": strings quoted and labelled so "12" is not read as 12. */
    private static String describeValue(JsonReader reader, JsonToken token) throws IOException {
        switch (token) {
            case STRING:
                return Values.quote(reader.nextString()) + " (a string)";
            case NUMBER:
                return Values.literal(reader.nextString()) + " (a number)";
            case BOOLEAN:
                return reader.nextBoolean() + " (a boolean)";
            case NULL:
                return "null";
            case BEGIN_ARRAY:
                return "an array";
            case BEGIN_OBJECT:
                return "an object";
            default:
                return token.name();
        }
    }

    /** An optional minus and 1..10 ASCII digits as a long, else {@link #NOT_AN_INTEGER}. */
    private static long parseInteger(String literal) {
        int i = literal.startsWith("-") ? 1 : 0;
        int digits = literal.length() - i;
        if (digits < 1 || digits > 10) {
            return NOT_AN_INTEGER;
        }
        long value = 0;
        for (; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c < '0' || c > '9') {
                return NOT_AN_INTEGER;
            }
            value = value * 10 + (c - '0');
        }
        return literal.charAt(0) == '-' ? -value : value;
    }

    /**
     * The fields a body may carry besides ours: skipped, each name at most once. The name set is made
     * on the first such field, so the usual body allocates none. One instance per parse; not
     * thread-safe.
     */
    private static final class IgnoredFields {
        private Set<String> names;

        /** Skips {@code name}'s value; a rejection if the name came before or the value nests too deep, else null. */
        <T> Result<T> skip(JsonReader reader, String name) throws IOException {
            if (names == null) {
                names = new HashSet<>();
            }
            if (!names.add(name)) {
                return duplicate(name);
            }
            return skipValue(reader) ? null : tooDeep();
        }
    }

    private static <T> Result<T> duplicate(String name) {
        return Result.badRequest("body must not repeat a field, got " + Values.quote(name) + " twice");
    }

    /** Gson's message without its troubleshooting link and its advice to turn on lenient parsing. */
    private static String explain(Exception malformed) {
        String message = malformed.getMessage();
        if (message == null || message.isBlank()) {
            return malformed.getClass().getSimpleName();
        }
        int link = message.indexOf("\nSee ");
        if (link >= 0) {
            message = message.substring(0, link);
        }
        message = message.replace(
                "Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON", "malformed JSON");
        return message.length() > 200 ? message.substring(0, 200) + "..." : message;
    }

    /** Only JSON's four whitespace characters (RFC 8259), or nothing at all. */
    private static boolean isJsonWhitespace(String json) {
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    private static void checkLength(byte[] body, int length) {
        if (length < 0 || length > body.length) {
            throw new IllegalArgumentException("length must be in 0.." + body.length + ", got " + length);
        }
    }

    /** Strictly decoded UTF-8, or null for malformed bytes (which lenient decoding would turn into U+FFFD). */
    private static String utf8(byte[] body, int length) {
        checkLength(body, length);
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            if (body[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(body, 0, length, StandardCharsets.ISO_8859_1); // identical to UTF-8 here, and faster
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body, 0, length))
                    .toString();
        } catch (CharacterCodingException malformed) {
            return null;
        }
    }
}
