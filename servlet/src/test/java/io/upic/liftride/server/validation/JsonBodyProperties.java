package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.LiftRide;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties of the body validator over hostile input: every answer is a valid ride or a 400 with a
 * message, never an exception (nor a StackOverflowError); valid rides in any layout are read exactly;
 * every kind of damage is refused.
 */
class JsonBodyProperties {
    private static final List<String> FIELDS = List.of("liftID", "time", "waitTime");

    /** The property every input must satisfy: a ride, or a 400 with a message. */
    private static Result<LiftRide> checkedRide(String json) {
        Result<LiftRide> result = JsonBodies.liftRide(json);
        if (!result.isOk()) {
            assertEquals(400, result.rejection().status());
            assertFalse(result.rejection().message().isBlank());
        } else {
            LiftRide ride = result.value();
            assertTrue(ride.liftId() >= 1 && ride.liftId() <= 60 && ride.time() >= 1 && ride.time() <= 420);
            assertTrue(ride.waitTime() == LiftRide.NO_WAIT_TIME || (ride.waitTime() >= 0 && ride.waitTime() <= 10));
        }
        return result;
    }

    @Property(tries = 1000)
    void answersEveryArbitraryStringWithARideOrA400(@ForAll("hostileText") String json) {
        checkedRide(json);
        Result<Integer> season = JsonBodies.seasonYear(json);
        if (!season.isOk()) {
            assertEquals(400, season.rejection().status());
        }
    }

    @Property(tries = 500)
    void answersArbitraryBytesWithARideOrA400(@ForAll @Size(max = 300) byte[] bytes) {
        Result<LiftRide> result = JsonBodies.liftRide(bytes, bytes.length);
        if (!result.isOk()) {
            assertEquals(400, result.rejection().status());
        }
    }

    @Property(tries = 500)
    void readsEveryValidRideExactlyWhateverItsLayout(@ForAll("validRides") Ride ride) {
        Result<LiftRide> result = checkedRide(ride.json());
        assertTrue(result.isOk(), () -> ride.json() + " gave " + result);
        assertEquals(ride.expected(), result.value());
    }

    @Property(tries = 500)
    void refusesEveryTruncationOfAValidRide(@ForAll("validRides") Ride ride, @ForAll Random random) {
        int lastBrace = ride.json().lastIndexOf('}');
        int cut = random.nextInt(lastBrace + 1); // 0..lastBrace: the closing brace is always lost
        assertFalse(
                checkedRide(ride.json().substring(0, cut)).isOk(),
                () -> "accepted " + ride.json().substring(0, cut));
    }

    @Property(tries = 500)
    void refusesTrailingGarbage(@ForAll("validRides") Ride ride, @ForAll("garbage") String garbage) {
        Result<LiftRide> result = checkedRide(ride.json() + garbage);
        assertFalse(result.isOk(), () -> "accepted " + ride.json() + garbage);
    }

    @Property(tries = 500)
    void refusesAWrongTypeNamingTheField(
            @ForAll("validRides") Ride ride, @ForAll("fields") String field, @ForAll("nonIntegers") String value) {
        String json = "{\"" + field + "\":" + value + ","
                + ride.json().substring(ride.json().indexOf('{') + 1);
        Result<LiftRide> result = checkedRide(json);
        assertFalse(result.isOk(), () -> "accepted " + json);
        assertTrue(
                result.rejection().message().startsWith(field + " must be an integer in ")
                        || result.rejection().message().startsWith("body must be valid JSON"),
                result.rejection().message());
    }

    @Property(tries = 500)
    void refusesIntegersOutsideTheRangeWithTheExactMessage(
            @ForAll("fields") String field, @ForAll("bigNumbers") BigInteger value) {
        IntRule rule = field.equals("liftID") ? Rules.LIFT_ID : field.equals("time") ? Rules.TIME : Rules.WAIT_TIME;
        String others =
                field.equals("liftID") ? "\"time\":1" : "\"liftID\":1" + (field.equals("time") ? "" : ",\"time\":1");
        String json = "{" + others + ",\"" + field + "\":" + value + "}";
        Result<LiftRide> result = checkedRide(json);
        boolean inRange = value.compareTo(BigInteger.valueOf(rule.min())) >= 0
                && value.compareTo(BigInteger.valueOf(rule.max())) <= 0;
        assertEquals(inRange, result.isOk(), json);
        if (!inRange) {
            assertEquals(
                    field + " must be an integer in " + rule.min() + ".." + rule.max() + ", got "
                            + Values.literal(value.toString()),
                    result.rejection().message());
        }
    }

    @Property(tries = 200)
    void refusesADuplicatedField(@ForAll("validRides") Ride ride, @ForAll("fields") String field) {
        String json =
                "{\"" + field + "\":1," + ride.json().substring(ride.json().indexOf('{') + 1);
        if (!ride.json().contains("\"" + field + "\"")) {
            return; // waitTime is optional: not a duplicate then
        }
        assertEquals(
                "body must not repeat a field, got \"" + field + "\" twice",
                checkedRide(json).rejection().message());
    }

    @Property(tries = 100)
    void survivesDeepNestingAnywhere(
            @ForAll @IntRange(min = 1, max = 20_000) int depth,
            @ForAll("openers") String opener,
            @ForAll @IntRange(min = 0, max = 2) int where) {
        String nested = opener.repeat(depth);
        String json;
        switch (where) {
            case 0:
                json = nested;
                break;
            case 1:
                json = "{\"x\":" + nested;
                break;
            default:
                json = "{\"liftID\":1,\"time\":1,\"x\":" + nested + "1" + (opener.equals("[") ? "]" : "}").repeat(depth)
                        + "}";
        }
        // complete and shallow enough (only possible in an ignored field) is the one acceptable case
        boolean acceptable = where == 2 && depth <= Rules.MAX_JSON_NESTING;
        assertEquals(acceptable, checkedRide(json).isOk(), () -> json.substring(0, Math.min(80, json.length())));
    }

    @Property(tries = 100)
    void survivesHugeBodies(@ForAll @IntRange(min = 4_000, max = 100_000) int size, @ForAll("validRides") Ride ride) {
        String padding = " ".repeat(size);
        assertTrue(checkedRide(padding + ride.json() + padding).isOk());
        String bigString = "{\"padding\":\"" + "a".repeat(size) + "\","
                + ride.json().substring(ride.json().indexOf('{') + 1);
        assertTrue(checkedRide(bigString).isOk());
        checkedRide("[" + "1,".repeat(size) + "1]");
        checkedRide("{\"liftID\":" + "9".repeat(size) + ",\"time\":1}");
    }

    /** The fast path (raw bytes) never disagrees with the strict Gson path: it accepts a subset, as the same rides. */
    @Property(tries = 3000)
    void fastPathAcceptsOnlyWhatGsonAcceptsAsTheSameRide(@ForAll("fastPathCandidates") String generated) {
        byte[] bytes = generated.getBytes(StandardCharsets.UTF_8);
        // the text the bytes carry: encoding turns a lone surrogate into '?', which Gson 2.12+ would refuse in the
        // String
        String json = new String(bytes, StandardCharsets.UTF_8);
        LiftRide fast = JsonBodies.fastLiftRide(bytes, bytes.length);
        Result<LiftRide> gson = JsonBodies.gsonLiftRide(json);
        if (fast != null) {
            assertTrue(gson.isOk(), () -> "fast path accepted " + json + ", Gson says " + gson);
            assertEquals(gson.value(), fast, json);
        }
        Result<LiftRide> public_ = JsonBodies.liftRide(bytes, bytes.length);
        assertEquals(gson.isOk(), public_.isOk(), json);
        assertEquals(gson.toString(), public_.toString(), json);
    }

    /** Every ride made only of the known fields, however spaced and ordered, takes the fast path. */
    @Property(tries = 1000)
    void fastPathTakesEveryRideOfOnlyTheKnownFields(@ForAll("knownFieldRides") Ride ride) {
        byte[] bytes = ride.json().getBytes(StandardCharsets.US_ASCII);
        assertEquals(ride.expected(), JsonBodies.fastLiftRide(bytes, bytes.length), ride.json());
    }

    @Provide
    Arbitrary<Ride> knownFieldRides() {
        Arbitrary<Integer> lift = Arbitraries.integers().between(1, 60);
        Arbitrary<Integer> time = Arbitraries.integers().between(1, 420);
        Arbitrary<Integer> wait = Arbitraries.integers().between(-1, 10); // -1: left out
        Arbitrary<String> space = Arbitraries.strings().withChars(" \t\r\n").ofMaxLength(3);
        return Combinators.combine(lift, time, wait, space, Arbitraries.randoms())
                .as((l, t, w, s, random) -> {
                    List<String> members = new ArrayList<>();
                    members.add("\"liftID\"" + s + ":" + s + l + s);
                    members.add(s + "\"time\":" + t);
                    if (w >= 0) {
                        members.add(
                                "\"waitTime\"" + s + ":" + (w == 0 && random.nextBoolean() ? "-0" : String.valueOf(w)));
                    }
                    Collections.shuffle(members, random);
                    String json = s + "{" + s + String.join("," + s, members) + s + "}" + s;
                    return new Ride(json, new LiftRide(l, t, w >= 0 ? w : LiftRide.NO_WAIT_TIME));
                });
    }

    /** Near misses of the fast path's shape: each known-field ride with one byte changed, inserted or removed. */
    @Provide
    Arbitrary<String> fastPathCandidates() {
        Arbitrary<String> damaged = Combinators.combine(
                        knownFieldRides(),
                        Arbitraries.integers().between(0, 200),
                        Arbitraries.of(0, 1, 2),
                        Arbitraries.strings()
                                .withChars("{}[]\":,0123456789.-+eE \t\n\r\\/u\u0000\u00e9aIDlifmtTw")
                                .ofLength(1))
                .as((ride, at, how, c) -> {
                    String json = ride.json();
                    int position = Math.min(at, json.length());
                    switch (how) {
                        case 0:
                            return json.substring(0, position) + c + json.substring(position);
                        case 1:
                            return position < json.length()
                                    ? json.substring(0, position) + c + json.substring(position + 1)
                                    : json + c;
                        default:
                            return position < json.length()
                                    ? json.substring(0, position) + json.substring(position + 1)
                                    : json;
                    }
                });
        Arbitrary<String> numbers = Combinators.combine(
                        Arbitraries.of(FIELDS),
                        Arbitraries.of(
                                "0",
                                "-0",
                                "00",
                                "-",
                                "01",
                                "1.0",
                                "1e1",
                                "9999999999",
                                "99999999999",
                                "-1",
                                "2147483648",
                                "4294967297",
                                "-9999999999",
                                "61",
                                "421",
                                "11",
                                "1 2",
                                "+1"))
                .as((field, number) -> "{\"liftID\":1,\"time\":1,\"" + field + "\":" + number + "}");
        return Arbitraries.oneOf(
                knownFieldRides().map(Ride::json),
                damaged,
                damaged,
                numbers,
                hostileText(),
                validRides().map(Ride::json));
    }

    @Provide
    Arbitrary<Ride> validRides() {
        Arbitrary<Integer> lift = Arbitraries.integers().between(1, 60);
        Arbitrary<Integer> time = Arbitraries.integers().between(1, 420);
        Arbitrary<Integer> wait = Arbitraries.integers().between(-1, 10); // -1: left out
        Arbitrary<String> space = Arbitraries.strings().withChars(" \t\r\n").ofMaxLength(3);
        Arbitrary<List<String>> unknown = Arbitraries.of(
                        "\"skierID\":12",
                        "\"note\":\"\\u00e9 \\\"q\\\"\"",
                        "\"meta\":{\"a\":[1,2.5,true,null]}",
                        "\"resortID\":null",
                        "\"x\":[]")
                .list()
                .uniqueElements()
                .ofMaxSize(3);
        return Combinators.combine(lift, time, wait, space, unknown, Arbitraries.randoms())
                .as((l, t, w, s, extra, random) -> {
                    List<String> members = new ArrayList<>(extra);
                    members.add("\"liftID\"" + s + ":" + s + l);
                    members.add("\"time\":" + s + t);
                    if (w >= 0) {
                        members.add("\"waitTime\":" + w);
                    }
                    Collections.shuffle(members, random);
                    String json = s + "{" + s + String.join("," + s, members) + s + "}" + s;
                    return new Ride(json, new LiftRide(l, t, w >= 0 ? w : LiftRide.NO_WAIT_TIME));
                });
    }

    @Provide
    Arbitrary<String> hostileText() {
        Arbitrary<String> jsonish = Arbitraries.strings()
                .withChars("{}[]\":,0123456789.-+eE truefalsnl\\'/*#\u0000\u00e9NaI")
                .ofMaxLength(80);
        Arbitrary<String> mutatedValid = Combinators.combine(
                        validRides(),
                        Arbitraries.integers().between(0, 200),
                        Arbitraries.strings().all().ofMaxLength(4))
                .as((ride, at, insert) -> {
                    int position = Math.min(at, ride.json().length());
                    return ride.json().substring(0, position)
                            + insert
                            + ride.json().substring(position);
                });
        return Arbitraries.oneOf(
                jsonish,
                mutatedValid,
                Arbitraries.strings().all().ofMaxLength(100),
                Arbitraries.of(
                        "",
                        " ",
                        "null",
                        "[]",
                        "{}",
                        "\"\"",
                        "0",
                        "-0",
                        "1e999",
                        "\uFEFF{}",
                        "{\"liftID\":1,\"time\":1}\uFEFF"));
    }

    @Provide
    Arbitrary<String> garbage() {
        return Arbitraries.strings()
                .all()
                .ofMinLength(1)
                .ofMaxLength(10)
                .filter(s -> !s.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\n' || c == '\r'));
    }

    @Provide
    Arbitrary<String> fields() {
        return Arbitraries.of(FIELDS);
    }

    @Provide
    Arbitrary<String> nonIntegers() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, 100).map(i -> "\"" + i + "\""),
                Arbitraries.doubles()
                        .between(-100, 100)
                        .ofScale(2)
                        .filter(d -> d != Math.rint(d))
                        .map(String::valueOf),
                Arbitraries.integers().between(1, 9).map(i -> i + ".0"),
                Arbitraries.integers().between(1, 9).map(i -> i + "e0"),
                Arbitraries.of("true", "false", "null", "[]", "[1]", "{}", "{\"v\":1}", "\"\"", "1E1", "-0.0"));
    }

    @Provide
    Arbitrary<BigInteger> bigNumbers() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(-20, 500).map(BigInteger::valueOf),
                Arbitraries.of(
                        BigInteger.valueOf(Integer.MAX_VALUE),
                        BigInteger.valueOf(Integer.MAX_VALUE).add(BigInteger.ONE),
                        BigInteger.valueOf(Integer.MIN_VALUE),
                        BigInteger.valueOf(Long.MAX_VALUE),
                        BigInteger.valueOf(Long.MIN_VALUE),
                        BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE),
                        BigInteger.TEN.pow(40)),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(), BigInteger.TEN.pow(30)));
    }

    @Provide
    Arbitrary<String> openers() {
        return Arbitraries.of("[", "{\"a\":");
    }

    /** A valid LiftRide body and the ride it must be read as. */
    record Ride(String json, LiftRide expected) {}
}
