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
    void refusesAContextWithAFilterMapped() {
        StandardContext context = new StandardContext();
        FilterDef def = new FilterDef();
        def.setFilterName("timing");
        def.setFilterClass("example.TimingFilter");
        context.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("timing");
        map.addURLPatternDecoded("/*");
        context.addFilterMap(map);

        String message = assertThrows(IllegalStateException.class, () -> BareServer.mapBareServlet(context))
                .getMessage();
        assertTrue(
                message.startsWith("the bare servlet must have no filter in front of it, but the context maps"),
                message);
        assertTrue(message.contains("timing"), message);
        assertNull(context.findChild("bench-bare"), "nothing mapped");
    }
}
