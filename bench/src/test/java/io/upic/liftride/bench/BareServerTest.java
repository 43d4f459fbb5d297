package io.upic.liftride.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardWrapper;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.Test;

/** How the bare servlet is put into a context: at its mapping, and never behind a filter. */
class BareServerTest {
    @Test
    void mapsTheBareServletUnderBenchBare() throws Exception {
        StandardContext context = new StandardContext();
        BareServer.mapBareServlet(context);
        assertEquals("bench-bare", context.findServletMapping("/bench/bare/*"));
        StandardWrapper wrapper = (StandardWrapper) context.findChild("bench-bare");
        assertInstanceOf(BareServlet.class, wrapper.getServlet());
    }

    @Test
    void refusesAContextWithAFilterInFrontOfIt() {
        for (String pattern : new String[] {"/*", "/bench/*", "/bench/bare/*"}) {
            StandardContext context = withFilter("timing", pattern);
            String message = assertThrows(IllegalStateException.class, () -> BareServer.mapBareServlet(context))
                    .getMessage();
            assertTrue(
                    message.startsWith("the bare servlet must have no filter in front of it, but the context maps"),
                    message);
            assertTrue(message.contains("timing"), message);
            assertNull(context.findChild("bench-bare"), "nothing mapped");
        }
    }

    @Test
    void acceptsAFilterThatGuardsOtherPaths() {
        StandardContext context = withFilter("operators-only", "/metrics", "/admin/*");
        BareServer.mapBareServlet(context);
        assertEquals("bench-bare", context.findServletMapping("/bench/bare/*"));
    }

    private static StandardContext withFilter(String name, String... patterns) {
        StandardContext context = new StandardContext();
        FilterDef def = new FilterDef();
        def.setFilterName(name);
        def.setFilterClass("example.Filter");
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName(name);
        for (String pattern : patterns) {
            map.addURLPatternDecoded(pattern);
        }
        context.addFilterMap(map);
        return context;
    }
}
