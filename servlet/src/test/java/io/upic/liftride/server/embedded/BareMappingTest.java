package io.upic.liftride.server.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.Test;

/** How filter mappings are kept off the bare servlet's path. */
class BareMappingTest {
    private static final String[] SERVLETS = {"skiers", "resorts", "not-found"};

    private static FilterMap map(String filter, String[] dispatchers, String[] patterns, String... servletNames) {
        FilterMap map = new FilterMap();
        map.setFilterName(filter);
        for (String dispatcher : dispatchers) {
            map.setDispatcher(dispatcher);
        }
        for (String pattern : patterns) {
            map.addURLPatternDecoded(pattern);
        }
        for (String name : servletNames) {
            map.addServletName(name);
        }
        return map;
    }

    @Test
    void remapsAMatchAllPatternToEveryServletKeepingTheDispatchers() {
        FilterMap remapped = BareMapping.keptOffBarePath(
                map("timing", new String[] {"REQUEST", "ASYNC"}, new String[] {"/*", "/x/*"}, "resorts"), SERVLETS);
        assertEquals("timing", remapped.getFilterName());
        assertArrayEquals(new String[] {"/x/*"}, remapped.getURLPatterns());
        assertArrayEquals(new String[] {"resorts", "skiers", "not-found"}, remapped.getServletNames());
        assertArrayEquals(new String[] {"REQUEST", "ASYNC"}, remapped.getDispatcherNames());
    }

    @Test
    void leavesMappingsThatCannotReachTheBarePathAlone() {
        FilterMap byPrefix = map("f", new String[0], new String[] {"/skiers/*", "/bench/other/*", "*.json"});
        assertSame(byPrefix, BareMapping.keptOffBarePath(byPrefix, SERVLETS));
        FilterMap byName = map("f", new String[0], new String[0], "skiers");
        assertSame(byName, BareMapping.keptOffBarePath(byName, SERVLETS));
    }

    @Test
    void refusesMappingsItCannotKeepOff() {
        for (String pattern : new String[] {"/bench/*", "/bench/bare/*"}) {
            assertEquals(
                    "cannot keep filter f off the bare servlet at /bench/bare/*: its URL pattern " + pattern
                            + " covers /bench/bare/*",
                    assertThrows(
                                    IllegalStateException.class,
                                    () -> BareMapping.keptOffBarePath(
                                            map("f", new String[0], new String[] {pattern}), SERVLETS))
                            .getMessage());
        }
        assertThrows(
                IllegalStateException.class,
                () -> BareMapping.keptOffBarePath(map("f", new String[0], new String[] {"*"}), SERVLETS));
        assertThrows(
                IllegalStateException.class,
                () -> BareMapping.keptOffBarePath(map("f", new String[0], new String[0], "*"), SERVLETS));
    }
}
