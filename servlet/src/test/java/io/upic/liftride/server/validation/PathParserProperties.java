package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.routing.RouteMatch;
import io.upic.liftride.server.routing.Routes;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;

/**
 * Properties of the path parser over hostile input: it never throws, answers only 400s with a message
 * naming the parameter, and accepts exactly what an independent oracle (BigInteger arithmetic) says
 * the contract allows.
 */
class PathParserProperties {

    @Property(tries = 1000)
    void neverThrowsAndOnlyRejectsWith400OnArbitraryPaths(@ForAll("paths") String path) {
        RouteMatch match = Routes.match(path);
        if (match == null) {
            return;
        }
        Result<?> result;
        switch (match.route()) {
            case SKIER_DAY:
                result = PathParams.skierDay(match);
                break;
            case SKIER_VERTICAL:
                result = PathParams.skierId(match);
                break;
            case RESORT_SEASONS:
                result = PathParams.resortId(match);
                break;
            case RESORT_DAY_SKIERS:
                result = PathParams.resortDay(match);
                break;
            default:
                return;
        }
        if (!result.isOk()) {
            assertEquals(400, result.rejection().status());
            assertFalse(result.rejection().message().isBlank());
        }
    }

    @Property(tries = 1000)
    void acceptsASkierDayExactlyWhenEverySegmentObeysTheContract(
            @ForAll("segments") String resort,
            @ForAll("segments") String season,
            @ForAll("segments") String day,
            @ForAll("segments") String skier) {
        RouteMatch match =
                Routes.match("/skiers/" + resort + "/seasons/" + season + "/days/" + day + "/skiers/" + skier);
        if (match == null) {
            // only a '/' inside a segment changes the shape
            assertTrue((resort + season + day + skier).contains("/"));
            return;
        }
        Result<SkierDay> result = PathParams.skierDay(match);
        boolean valid = Oracle.integerIn(resort, 1, Integer.MAX_VALUE, 0)
                && Oracle.year(season, 0)
                && Oracle.integerIn(day, 1, 366, 3)
                && Oracle.integerIn(skier, 1, 100_000, 0);
        assertEquals(valid, result.isOk(), () -> "segments " + List.of(resort, season, day, skier) + " gave " + result);
        if (valid) {
            assertEquals(
                    new SkierDay(
                            new BigInteger(resort).intValueExact(),
                            Integer.parseInt(season),
                            Integer.parseInt(day),
                            Integer.parseInt(skier)),
                    result.value());
        } else {
            String message = result.rejection().message();
            assertTrue(
                    message.matches("(?s)^(resortID|seasonID|dayID|skierID) must be .+, got \".*\"$"),
                    message); // (?s): a segment may hold U+2028 or NEL
        }
    }

    @Property(tries = 500)
    void rejectsNumbersPastTheLimitsNamingTheValue(@ForAll("numbersNearLimits") String number) {
        Result<Integer> result = PathParams.resortId(Routes.match("/resorts/" + number + "/seasons"));
        boolean valid = Oracle.integerIn(number, 1, Integer.MAX_VALUE, 0);
        assertEquals(valid, result.isOk(), () -> number + " gave " + result);
        if (!valid) {
            assertEquals(
                    "resortID must be an integer in 1..2147483647, got " + Values.quote(number),
                    result.rejection().message());
        }
    }

    @Property(tries = 300)
    void echoesAtMostFortyCharactersOfAHugeSegment(@ForAll @StringLength(min = 41, max = 5000) String huge) {
        String segment = huge.replace('/', 'x');
        Result<Integer> result = PathParams.skierId(Routes.match("/skiers/" + segment + "/vertical"));
        assertFalse(result.isOk());
        assertTrue(result.rejection().message().length() < 40 * 6 + 100, () -> "message too long: " + result);
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> segment = segments();
        Arbitrary<String> literal =
                Arbitraries.of("skiers", "seasons", "days", "day", "resorts", "vertical", "statistics", "");
        Arbitrary<String> part =
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, literal), net.jqwik.api.Tuple.of(2, segment));
        Arbitrary<String> structured =
                part.list().ofMinSize(0).ofMaxSize(12).map(parts -> "/" + String.join("/", parts));
        return Arbitraries.oneOf(
                structured,
                Arbitraries.strings().ofMaxLength(200),
                Arbitraries.strings().all().ofMaxLength(30));
    }

    @Provide
    Arbitrary<String> segments() {
        return Arbitraries.oneOf(
                numbersNearLimits(),
                Arbitraries.integers().between(-5, 100_005).map(String::valueOf),
                Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(12),
                Arbitraries.strings().withChars("0123456789+-.eE x%").ofMaxLength(12),
                Arbitraries.strings().all().ofMaxLength(8),
                Arbitraries.of(
                        "", "-0", "+1", "1e3", "0x1F", "１", "\u0661", "2022", "0000", "9999", "366", "001", "0001"));
    }

    @Provide
    Arbitrary<String> numbersNearLimits() {
        Arbitrary<BigInteger> base = Arbitraries.of(
                BigInteger.ZERO,
                BigInteger.ONE,
                BigInteger.valueOf(366),
                BigInteger.valueOf(100_000),
                BigInteger.valueOf(Integer.MAX_VALUE),
                BigInteger.valueOf(Integer.MIN_VALUE),
                BigInteger.valueOf(Long.MAX_VALUE),
                BigInteger.valueOf(Long.MIN_VALUE),
                BigInteger.TWO.pow(64));
        Arbitrary<Integer> offset = Arbitraries.integers().between(-3, 3);
        Arbitrary<String> zeros = Arbitraries.strings().withChars('0').ofMaxLength(3);
        return Combinators.combine(base, offset, zeros).as((b, o, z) -> {
            BigInteger value = b.add(BigInteger.valueOf(o));
            return value.signum() < 0 ? value.toString() : z + value;
        });
    }

    /** The contract's rules, written independently of the parser with BigInteger and regular expressions. */
    static final class Oracle {
        static boolean integerIn(String text, long min, long max, int maxDigits) {
            if (!text.matches("[0-9]+") || (maxDigits > 0 && text.length() > maxDigits)) {
                return false;
            }
            BigInteger value = new BigInteger(text);
            return value.compareTo(BigInteger.valueOf(min)) >= 0 && value.compareTo(BigInteger.valueOf(max)) <= 0;
        }

        static boolean year(String text, int min) {
            return text.matches("[0-9]{4}") && Integer.parseInt(text) >= min;
        }
    }
}
