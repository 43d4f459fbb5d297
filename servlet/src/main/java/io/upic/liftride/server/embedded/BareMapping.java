package io.upic.liftride.server.embedded;

import java.util.Arrays;
import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.LifecycleEvent;
import org.apache.catalina.LifecycleListener;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * Adds {@link BareServlet} to the LiftRide context at {@value EmbeddedServer#BARE_MAPPING}, with no
 * filter in front of it: the floor it measures is "Tomcat + an empty servlet". The real POST goes
 * through {@code TimingFilter} (it feeds /statistics), and that cost belongs to our endpoint, not to
 * the container, so the comparison charges it to the POST side.
 *
 * <p>A URL pattern cannot exclude a path, so a filter mapped to {@code /*} (TimingFilter in web.xml)
 * is remapped to the names of every servlet web.xml declares — the same requests minus the bare
 * servlet's, since the {@code /} servlet catches every path no other pattern does. A remapped filter
 * keeps its dispatchers and its place in the list; Tomcat runs filters matched by URL before filters
 * matched by servlet name, which only matters if a second filter is ever mapped by URL. Any other
 * mapping that would reach the bare path (a servlet name {@code *}, a prefix such as {@code /bench/*})
 * fails the start rather than silently putting a filter on the floor.
 *
 * <p>Must be added to the context after its {@code ContextConfig}: listeners run in the order they are
 * added, so web.xml's servlets and filter mappings exist when this one runs. Stateless.
 */
final class BareMapping implements LifecycleListener {
    static final String SERVLET_NAME = "bench-bare";
    /** A path under the mapping, to test prefix patterns against. */
    private static final String BARE_PATH = EmbeddedServer.BARE_MAPPING.replace("*", "x");

    @Override
    public void lifecycleEvent(LifecycleEvent event) {
        if (Lifecycle.CONFIGURE_START_EVENT.equals(event.getType())) {
            install((Context) event.getLifecycle());
        }
    }

    /** Keeps every filter off the bare path, then maps the bare servlet there. */
    static void install(Context context) {
        if (context.findChild(SERVLET_NAME) != null) {
            throw new IllegalStateException("the context already has a servlet named " + SERVLET_NAME);
        }
        String[] servletNames = Arrays.stream(context.findChildren())
                .map(Container::getName)
                .sorted()
                .toArray(String[]::new);
        FilterMap[] maps = context.findFilterMaps();
        for (FilterMap map : maps) {
            context.removeFilterMap(map);
        }
        for (FilterMap map : maps) {
            context.addFilterMap(keptOffBarePath(map, servletNames));
        }
        Tomcat.addServlet(context, SERVLET_NAME, new BareServlet());
        context.addServletMappingDecoded(EmbeddedServer.BARE_MAPPING, SERVLET_NAME);
    }

    /** {@code map} itself when it cannot reach the bare path, else the same filter on {@code servletNames}. */
    static FilterMap keptOffBarePath(FilterMap map, String[] servletNames) {
        if (map.getMatchAllServletNames() || map.getMatchAllUrlPatterns()) {
            throw cannotKeepOff(map, "it is mapped to every servlet or URL (\"*\")");
        }
        boolean matchesAll = false;
        for (String pattern : map.getURLPatterns()) {
            if (pattern.equals("/*")) {
                matchesAll = true;
            } else if (pattern.endsWith("/*") && BARE_PATH.startsWith(pattern.substring(0, pattern.length() - 1))) {
                throw cannotKeepOff(map, "its URL pattern " + pattern + " covers " + EmbeddedServer.BARE_MAPPING);
            }
        }
        if (!matchesAll) {
            return map;
        }
        FilterMap remapped = new FilterMap();
        remapped.setFilterName(map.getFilterName());
        for (String dispatcher : map.getDispatcherNames()) {
            remapped.setDispatcher(dispatcher);
        }
        for (String pattern : map.getURLPatterns()) {
            if (!pattern.equals("/*")) {
                remapped.addURLPatternDecoded(pattern);
            }
        }
        for (String name : map.getServletNames()) {
            remapped.addServletName(name);
        }
        for (String name : servletNames) {
            if (!Arrays.asList(remapped.getServletNames()).contains(name)) {
                remapped.addServletName(name);
            }
        }
        return remapped;
    }

    private static IllegalStateException cannotKeepOff(FilterMap map, String why) {
        return new IllegalStateException("cannot keep filter " + map.getFilterName() + " off the bare servlet at "
                + EmbeddedServer.BARE_MAPPING + ": " + why);
    }
}
