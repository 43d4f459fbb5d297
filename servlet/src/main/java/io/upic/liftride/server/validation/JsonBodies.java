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
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validates request bodies against {@link Rules}: from bytes to a value or a 400 naming the field, the value
 * and the rule; never throws. Gson's {@link JsonReader} runs in {@link Strictness#STRICT} mode (RFC 8259),
 * and ignored values nest at most {@link Rules#MAX_JSON_NESTING} deep. Stateless and thread-safe.
 */
public final class JsonBodies {
    private static final int ABSENT = Integer.MIN_VALUE;
    private static final String RIDE_EXAMPLE = "{\"liftID\": 21, \"time\": 217, \"waitTime\": 3}";
    private static final String SEASON_EXAMPLE = "{\"year\": \"2019\"}";

    /** The LiftRide fields; a ride's values come in this order. */
    private static final IntRule[] RIDE_FIELDS = {LIFT_ID, TIME, WAIT_TIME};

    private static final IntRule[] SEASON_FIELDS = {YEAR};

    /** Numbers longer than this are shortened before Gson reads them (its buffer holds 1,024 characters). */
    static final int LONG_NUMBER_CHARS = 100;

    /** RFC 8259's number; group 1 is the sign and the integer part. */
    private static final Pattern JSON_NUMBER =
            Pattern.compile("(-?(?:0|[1-9][0-9]*))(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");

    private JsonBodies() {}

    /** A LiftRide from the first {@code length} bytes of {@code body}, which must be UTF-8. */
    public static Result<LiftRide> liftRide(byte[] body, int length) {
        return liftRide(utf8(body, length));
    }

    /** A LiftRide: liftID 1..60 and time 1..420 required, waitTime 0..10 optional, other fields ignored. */
    public static Result<LiftRide> liftRide(String json) {
        Result<int[]> fields = readObject(json, RIDE_EXAMPLE, RIDE_FIELDS);
        if (!fields.isOk()) {
            return Result.rejected(fields.rejection());
        }
        int[] values = fields.value(); // liftID, time, waitTime
        if (values[0] == ABSENT) {
            return Result.rejected(LIFT_ID.missing());
        }
        if (values[1] == ABSENT) {
            return Result.rejected(TIME.missing());
        }
        return Result.ok(new LiftRide(values[0], values[1], values[2] == ABSENT ? LiftRide.NO_WAIT_TIME : values[2]));
    }

    /** A SeasonBody's year from the first {@code length} bytes of {@code body}, which must be UTF-8. */
    public static Result<Integer> seasonYear(byte[] body, int length) {
        return seasonYear(utf8(body, length));
    }

    /** A SeasonBody's year: {@code year} required, a string of exactly 4 ASCII digits; other fields ignored. */
    public static Result<Integer> seasonYear(String json) {
        Result<int[]> fields = readObject(json, SEASON_EXAMPLE, SEASON_FIELDS);
        if (!fields.isOk()) {
            return Result.rejected(fields.rejection());
        }
        int year = fields.value()[0];
        return year == ABSENT ? Result.rejected(YEAR.missing()) : Result.ok(year);
    }

    /**
     * The body (null: not UTF-8) as one JSON object: the value of each of {@code fields} ({@link #ABSENT} when not
     * given); other fields are skipped. Refuses an empty body, anything but one object, a duplicate field, deep
     * nesting and malformed JSON; missing fields are the caller's to check.
     */
    private static Result<int[]> readObject(String json, String example, IntRule[] fields) {
        if (json == null) {
            return Result.badRequest("body must be UTF-8 encoded JSON");
        }
        if (isJsonWhitespace(json)) {
            return Result.badRequest("body is required: a JSON object such as " + example);
        }
        try {
            JsonReader reader = strictReader(json);
            JsonToken first = reader.peek();
            if (first != JsonToken.BEGIN_OBJECT) {
                return Result.badRequest("body must be a JSON object, got " + describeValue(reader, first));
            }
            int[] values = new int[fields.length];
            Arrays.fill(values, ABSENT);
            Set<String> ignored = null; // made on the first unknown field, so the usual body allocates none
            reader.beginObject();
            while (reader.hasNext()) {
                String name = reader.nextName();
                int index = indexOf(fields, name);
                if (index < 0) {
                    if (ignored == null) {
                        ignored = new HashSet<>();
                    }
                    if (!ignored.add(name)) {
                        return duplicate(name);
                    }
                    if (!skipValue(reader)) {
                        return Result.badRequest("body must not nest arrays or objects more than "
                                + Rules.MAX_JSON_NESTING + " levels deep");
                    }
                    continue;
                }
                if (values[index] != ABSENT) {
                    return duplicate(name);
                }
                Result<Integer> value = readValue(reader, fields[index]);
                if (!value.isOk()) {
                    return Result.rejected(value.rejection());
                }
                values[index] = value.value();
            }
            reader.endObject();
            Rejection trailing = expectEnd(reader);
            return trailing == null ? Result.ok(values) : Result.rejected(trailing);
        } catch (IOException | RuntimeException malformed) {
            return Result.badRequest("body must be valid JSON: " + explain(malformed));
        }
    }

    private static JsonReader strictReader(String json) {
        JsonReader reader = new JsonReader(new StringReader(shortenLongNumbers(json)));
        reader.setStrictness(Strictness.STRICT);
        return reader;
    }

    /**
     * {@code json} with every number longer than {@value #LONG_NUMBER_CHARS} characters shortened (still out of
     * range): Gson's reader calls a number past its 1,024-character buffer malformed.
     */
    static String shortenLongNumbers(String json) {
        if (json.length() <= LONG_NUMBER_CHARS) {
            return json;
        }
        StringBuilder out = null;
        int copied = 0; // json[0..copied) is in out
        boolean inString = false;
        int i = 0;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (inString || c == '"') {
                inString = c == '"' ? !inString : true;
                i += inString && c == '\\' ? 2 : 1;
                continue;
            }
            int end = i;
            while (end < json.length() && "+-.0123456789eE".indexOf(json.charAt(end)) >= 0) {
                end++;
            }
            Matcher number = end - i > LONG_NUMBER_CHARS ? JSON_NUMBER.matcher(json.substring(i, end)) : null;
            if (number != null && number.matches()) {
                out = out == null ? new StringBuilder(json.length()) : out;
                String integer = number.group(1);
                out.append(json, copied, i).append(integer, 0, Math.min(integer.length(), LONG_NUMBER_CHARS));
                copied = end;
            }
            i = Math.max(end, i + 1);
        }
        return out == null ? json : out.append(json, copied, json.length()).toString();
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
                case BEGIN_ARRAY, BEGIN_OBJECT -> {
                    if (++depth > Rules.MAX_JSON_NESTING) {
                        return false;
                    }
                    if (reader.peek() == JsonToken.BEGIN_ARRAY) {
                        reader.beginArray();
                    } else {
                        reader.beginObject();
                    }
                }
                case END_ARRAY -> {
                    depth--;
                    reader.endArray();
                }
                case END_OBJECT -> {
                    depth--;
                    reader.endObject();
                }
                case NAME -> reader.nextName(); // duplicates inside ignored values are not our business
                case STRING, NUMBER -> reader.nextString(); // not skipValue(): that skips strings without checking
                case BOOLEAN -> reader.nextBoolean();
                default -> reader.nextNull();
            }
        } while (depth > 0);
        return true;
    }

    /**
     * A field's value: a JSON number without fraction or exponent within the rule's range, or for a year a JSON
     * string of its 4 digits.
     */
    private static Result<Integer> readValue(JsonReader reader, IntRule rule) throws IOException {
        JsonToken token = reader.peek();
        if (token != (rule.year() ? JsonToken.STRING : JsonToken.NUMBER)) {
            return Result.rejected(rule.reject(describeValue(reader, token)));
        }
        String text = reader.nextString(); // -0 is 0; any other sign, fraction or exponent is out of range
        int value = rule.parseText(text.equals("-0") ? "0" : text);
        return value != IntRule.INVALID
                ? Result.ok(value)
                : Result.rejected(rule.reject(rule.year() ? Values.quote(text) : Values.literal(text)));
    }

    private static int indexOf(IntRule[] fields, String name) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A JSON value as the message's "got ...": strings quoted and labelled so "12" is not read as 12. */
    private static String describeValue(JsonReader reader, JsonToken token) throws IOException {
        return switch (token) {
            case STRING -> Values.quote(reader.nextString()) + " (a string)";
            case NUMBER -> Values.literal(reader.nextString()) + " (a number)";
            case BOOLEAN -> reader.nextBoolean() + " (a boolean)";
            case NULL -> "null";
            case BEGIN_ARRAY -> "an array";
            case BEGIN_OBJECT -> "an object";
            default -> token.name();
        };
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

    /** Strictly decoded UTF-8, or null for malformed bytes (which lenient decoding would turn into U+FFFD). */
    private static String utf8(byte[] body, int length) {
        if (length < 0 || length > body.length) {
            throw new IllegalArgumentException("length must be in 0.." + body.length + ", got " + length);
        }
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
