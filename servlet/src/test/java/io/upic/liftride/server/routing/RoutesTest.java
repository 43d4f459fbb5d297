package io.upic.liftride.server.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RoutesTest {
    @Test
    void matchesSkierDayAndCollectsParametersInTemplateOrder() {
        RouteMatch match = Routes.match("/skiers/1/seasons/2022/days/3/skiers/77");
        assertNotNull(match);
        assertEquals(Route.SKIER_DAY, match.route());
        assertEquals(List.of("1", "2022", "3", "77"), match.parameters());
    }

    @Test
    void matchesEveryRouteOfTheContract() {
        assertEquals(Route.SKIER_VERTICAL, Routes.match("/skiers/9/vertical").route());
        assertEquals(Route.RESORTS, Routes.match("/resorts").route());
        assertEquals(Route.RESORT_SEASONS, Routes.match("/resorts/4/seasons").route());
        assertEquals(
                Route.RESORT_DAY_SKIERS,
                Routes.match("/resorts/4/seasons/2022/day/1/skiers").route());
        assertEquals(Route.STATISTICS, Routes.match("/statistics").route());
    }

    @Test
    void matchesShapeEvenWhenParametersAreInvalidSoThatTheAnswerIsA400NotA404() {
        RouteMatch match = Routes.match("/skiers/x/seasons/y/days/z/skiers/");
        assertEquals(Route.SKIER_DAY, match.route());
        assertEquals(List.of("x", "y", "z", ""), match.parameters());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "/",
                "skiers/1/vertical",
                "/resorts/",
                "/statistics/",
                "/resorts/1",
                "/resorts/1/seasons/",
                "/skiers",
                "/skiers/1",
                "/skiers/1/vertical/",
                "/skiers/1/seasons/2022/days/1/skiers",
                "/skiers/1/seasons/2022/day/1/skiers/1",
                "/skiers/1/season/2022/days/1/skiers/1",
                "/skiers/1/seasons/2022/days/1/skier/1",
                "/skiers/1/seasons/2022/days/1/skiers/1/extra",
                "/resorts/1/seasons/2022/days/1/skiers",
                "/resorts/1/seasons/2022/day/1/skier",
                "/RESORTS",
                "/Statistics",
                "//resorts",
                "/a/b/c/d/e/f/g/h/i/j/k"
            })
    void findsNoRouteForPathsOfAnotherShape(String path) {
        assertNull(Routes.match(path));
    }

    @Test
    void findsNoRouteForNull() {
        assertNull(Routes.match(null));
    }

    @Test
    void routesAnnounceTheirMethodsForTheAllowHeader() {
        assertEquals("GET, POST", Route.SKIER_DAY.allowHeader());
        assertEquals("GET", Route.SKIER_VERTICAL.allowHeader());
        assertEquals("GET", Route.RESORTS.allowHeader());
        assertEquals("GET, POST", Route.RESORT_SEASONS.allowHeader());
        assertEquals("GET", Route.RESORT_DAY_SKIERS.allowHeader());
        assertEquals("GET", Route.STATISTICS.allowHeader());
        assertTrue(Route.SKIER_DAY.allows(HttpMethod.POST));
        assertTrue(!Route.RESORTS.allows(HttpMethod.POST));
        assertTrue(!Route.RESORTS.allows(null));
    }

    @Test
    void parsesOnlyExactUpperCaseMethodNames() {
        assertEquals(HttpMethod.GET, HttpMethod.parse("GET"));
        assertEquals(HttpMethod.POST, HttpMethod.parse("POST"));
        assertNull(HttpMethod.parse("get"));
        assertNull(HttpMethod.parse("PUT"));
        assertNull(HttpMethod.parse(null));
    }
}
