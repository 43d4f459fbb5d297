package io.upic.liftride.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.upic.liftride.server.model.SkierVerticalQuery;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryParamsTest {
    private static void assertRejected(Result<?> result, String message) {
        assertFalse(result.isOk(), () -> "expected a rejection, got " + result);
        assertEquals(400, result.rejection().status());
        assertEquals(message, result.rejection().message());
    }

    @Test
    void acceptsOneResortAndNoSeason() {
        assertEquals(
                new SkierVerticalQuery(7, Set.of(1), Set.of()),
                QueryParams.skierVertical(7, "resort=1").value());
    }

    @Test
    void acceptsRepeatedResortsAndSeasonsAsTheSdkSendsThem() {
        assertEquals(
                new SkierVerticalQuery(7, Set.of(1, 2), Set.of(2021, 2022)),
                QueryParams.skierVertical(7, "resort=1&resort=2&season=2021&season=2022&resort=1")
                        .value());
    }

    @Test
    void decodesPercentEncodingAndIgnoresOtherParameters() {
        assertEquals(
                new SkierVerticalQuery(7, Set.of(12), Set.of(2022)),
                QueryParams.skierVertical(7, "%72esort=%31%32&x=%20&&season=2022&flag")
                        .value());
    }

    @Test
    void requiresAtLeastOneResort() {
        String message =
                "resort is required (an integer in 1..2147483647; repeat it for several resorts: ?resort=1&resort=2)";
        assertRejected(QueryParams.skierVertical(7, null), message);
        assertRejected(QueryParams.skierVertical(7, ""), message);
        assertRejected(QueryParams.skierVertical(7, "season=2022"), message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "resort=0              | resort must be an integer in 1..2147483647, got \"0\"",
                "resort=               | resort must be an integer in 1..2147483647, got \"\"",
                "resort                | resort must be an integer in 1..2147483647, got \"\"",
                "resort=1,2            | resort must be an integer in 1..2147483647, got \"1,2\"",
                "resort=+1             | resort must be an integer in 1..2147483647, got \" 1\"",
                "resort=1&season=22    | season must be a 4-digit year (exactly 4 ASCII digits), got \"22\"",
                "resort=1&season=abcd  | season must be a 4-digit year (exactly 4 ASCII digits), got \"abcd\"",
                "resort=%zz            | query string must be valid percent-encoding, got \"resort=%zz\"",
                "resort=1&season=%2    | query string must be valid percent-encoding, got \"season=%2\"",
            })
    void rejectsInvalidValuesNamingTheParameter(String query, String message) {
        assertRejected(QueryParams.skierVertical(7, query), message);
    }

    @Test
    void refusesAParameterRepeatedMoreThanTheCapNamingIt() {
        String fifty = "resort=1" + "&resort=2".repeat(Rules.MAX_QUERY_VALUES - 1);
        assertEquals(Set.of(1, 2), QueryParams.skierVertical(7, fifty).value().resorts(), "50 times is fine");
        assertRejected(
                QueryParams.skierVertical(7, fifty + "&resort=3"), "resort may be given at most 50 times, got more");
        String seasons = "resort=1" + "&season=2022".repeat(5_000);
        assertRejected(QueryParams.skierVertical(7, seasons), "season may be given at most 50 times, got more");
    }
}
