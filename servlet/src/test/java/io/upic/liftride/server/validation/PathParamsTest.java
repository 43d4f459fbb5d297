package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.model.ResortDay;
import io.upic.liftride.server.model.SkierDay;
import io.upic.liftride.server.routing.Routes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathParamsTest {
    private static Result<SkierDay> skierDay(String resort, String season, String day, String skier) {
        return PathParams.skierDay(
                Routes.match("/skiers/" + resort + "/seasons/" + season + "/days/" + day + "/skiers/" + skier));
    }

    private static void assertRejected(Result<?> result, String message) {
        assertFalse(result.isOk(), () -> "expected a rejection, got " + result);
        assertEquals(400, result.rejection().status());
        assertEquals(message, result.rejection().message());
    }

    @Test
    void acceptsAValidSkierDay() {
        assertEquals(
                new SkierDay(1, 2022, 1, 100000),
                skierDay("1", "2022", "1", "100000").value());
    }

    @Test
    void acceptsTheLimitsOfEveryRange() {
        assertEquals(
                new SkierDay(2147483647, 0, 366, 1),
                skierDay("2147483647", "0000", "366", "1").value());
        assertEquals(
                new SkierDay(1, 9999, 1, 100000),
                skierDay("1", "9999", "1", "100000").value());
    }

    @Test
    void acceptsLeadingZerosInIntegersAndUpToThreeDigitDays() {
        assertEquals(
                new SkierDay(7, 2022, 1, 42),
                skierDay("007", "2022", "001", "00042").value());
        assertEquals(
                new SkierDay(1, 2022, 9, 1),
                skierDay("0000000000000000000001", "2022", "09", "1").value());
    }

    @ParameterizedTest(name = "resortID \"{0}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "abc        | resortID must be an integer in 1..2147483647, got \"abc\"",
                "0          | resortID must be an integer in 1..2147483647, got \"0\"",
                "-1         | resortID must be an integer in 1..2147483647, got \"-1\"",
                "+1         | resortID must be an integer in 1..2147483647, got \"+1\"",
                "1.0        | resortID must be an integer in 1..2147483647, got \"1.0\"",
                "1e3        | resortID must be an integer in 1..2147483647, got \"1e3\"",
                "2147483648 | resortID must be an integer in 1..2147483647, got \"2147483648\"",
                "99999999999999999999 | resortID must be an integer in 1..2147483647, got \"99999999999999999999\"",
                "0x10       | resortID must be an integer in 1..2147483647, got \"0x10\"",
            })
    void rejectsResortIdsThatAreNotPositiveInts(String resort, String message) {
        assertRejected(skierDay(resort, "2022", "1", "1"), message);
    }

    @Test
    void rejectsAnEmptyResortIdNamingIt() {
        assertRejected(
                PathParams.resortId(Routes.match("/resorts//seasons")),
                "resortID must be an integer in 1..2147483647, got \"\"");
    }

    @Test
    void rejectsResortIdsWithSpacesOrUnicodeDigits() {
        assertRejected(skierDay(" 1", "2022", "1", "1"), "resortID must be an integer in 1..2147483647, got \" 1\"");
        assertRejected(
                skierDay("\u0661", "2022", "1", "1"), "resortID must be an integer in 1..2147483647, got \"\u0661\"");
    }

    @ParameterizedTest(name = "seasonID \"{0}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "22     | seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"22\"",
                "20222  | seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"20222\"",
                "20a2   | seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"20a2\"",
                "-202   | seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"-202\"",
                "２０２２ | seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"２０２２\"",
            })
    void rejectsSeasonsThatAreNotFourAsciiDigits(String season, String message) {
        assertRejected(skierDay("1", season, "1", "1"), message);
    }

    @ParameterizedTest(name = "dayID \"{0}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "0    | dayID must be an integer in 1..366 of at most 3 digits, got \"0\"",
                "367  | dayID must be an integer in 1..366 of at most 3 digits, got \"367\"",
                "0001 | dayID must be an integer in 1..366 of at most 3 digits, got \"0001\"",
                "1a   | dayID must be an integer in 1..366 of at most 3 digits, got \"1a\"",
                "-1   | dayID must be an integer in 1..366 of at most 3 digits, got \"-1\"",
            })
    void rejectsDaysOutsideOneTo366(String day, String message) {
        assertRejected(skierDay("1", "2022", day, "1"), message);
    }

    @ParameterizedTest(name = "skierID \"{0}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "0      | skierID must be an integer in 1..100000, got \"0\"",
                "100001 | skierID must be an integer in 1..100000, got \"100001\"",
                "abc    | skierID must be an integer in 1..100000, got \"abc\"",
                "''     | skierID must be an integer in 1..100000, got \"\"",
            })
    void rejectsSkierIdsOutsideOneTo100000(String skier, String message) {
        assertRejected(skierDay("1", "2022", "1", skier), message);
    }

    @Test
    void namesTheFirstInvalidParameterInTemplateOrder() {
        assertRejected(skierDay("x", "y", "z", "w"), "resortID must be an integer in 1..2147483647, got \"x\"");
        assertRejected(
                skierDay("1", "y", "z", "w"), "seasonID must be a 4-digit year (exactly 4 ASCII digits), got \"y\"");
        assertRejected(
                skierDay("1", "2022", "z", "w"), "dayID must be an integer in 1..366 of at most 3 digits, got \"z\"");
    }

    @Test
    void shortensAndEscapesHostileValuesInMessages() {
        String huge = "9".repeat(5000);
        assertRejected(
                skierDay("1", "2022", "1", huge),
                "skierID must be an integer in 1..100000, got \"" + "9".repeat(40) + "...\"");
        assertRejected(
                skierDay("a\"b\\c\u0001", "2022", "1", "1"),
                "resortID must be an integer in 1..2147483647, got \"a\\\"b\\\\c\\u0001\"");
    }

    @Test
    void acceptsAValidResortDay() {
        assertEquals(
                new ResortDay(3, 2022, 366),
                PathParams.resortDay(Routes.match("/resorts/3/seasons/2022/day/366/skiers"))
                        .value());
    }

    @Test
    void rejectsResortDaySeasonsBelow1000BecauseTheContractTypesThemAsIntegers1000To9999() {
        assertRejected(
                PathParams.resortDay(Routes.match("/resorts/3/seasons/0999/day/1/skiers")),
                "seasonID must be a 4-digit year in 1000..9999, got \"0999\"");
        assertRejected(
                PathParams.resortDay(Routes.match("/resorts/3/seasons/999/day/1/skiers")),
                "seasonID must be a 4-digit year in 1000..9999, got \"999\"");
    }

    @Test
    void rejectsEachInvalidResortDayParameter() {
        assertRejected(
                PathParams.resortDay(Routes.match("/resorts/0/seasons/2022/day/1/skiers")),
                "resortID must be an integer in 1..2147483647, got \"0\"");
        assertRejected(
                PathParams.resortDay(Routes.match("/resorts/1/seasons/2022/day/400/skiers")),
                "dayID must be an integer in 1..366 of at most 3 digits, got \"400\"");
    }

    @Test
    void parsesTheSkierOfTheVerticalRouteAndTheResortOfTheSeasonsRoute() {
        assertEquals(
                100000,
                PathParams.skierId(Routes.match("/skiers/100000/vertical")).value());
        assertRejected(
                PathParams.skierId(Routes.match("/skiers/100001/vertical")),
                "skierID must be an integer in 1..100000, got \"100001\"");
        assertEquals(
                2147483647,
                PathParams.resortId(Routes.match("/resorts/2147483647/seasons")).value());
    }

    @Test
    void refusesAMatchOfAnotherRouteAsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> PathParams.skierDay(Routes.match("/resorts")));
        assertTrue(PathParams.resortId(Routes.match("/resorts/1/seasons")).isOk());
    }
}
