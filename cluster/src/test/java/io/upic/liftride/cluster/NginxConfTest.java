package io.upic.liftride.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class NginxConfTest {
    private static final Path DIR = Path.of("/run/lc/nginx");
    private final String conf = new NginxConf(8080, List.of(4001, 4002, 4003), DIR).render();

    @Test
    void balancesOverEveryServerOnLoopbackAndListensOnTheFront() {
        assertTrue(conf.contains("server 127.0.0.1:4001 max_fails=1 fail_timeout=2s;\n"), conf);
        assertTrue(conf.contains("server 127.0.0.1:4002 "), conf);
        assertTrue(conf.contains("server 127.0.0.1:4003 "), conf);
        assertEquals(3, count("\n\\s*server 127\\.0\\.0\\.1:"), conf);
        assertTrue(conf.contains("listen 127.0.0.1:8080 "), conf);
        assertTrue(conf.contains("pid " + DIR.resolve("nginx.pid") + ";"), conf);
    }

    @Test
    void keepsUpstreamConnectionsAliveOverHttp11() {
        assertTrue(conf.matches("(?s).*upstream liftride \\{[^}]*\\n\\s*keepalive \\d+;.*"), conf);
        assertTrue(conf.contains("proxy_http_version 1.1;"), conf);
        assertTrue(conf.contains("proxy_set_header Connection \"\";"), conf);
        // nginx gives up an idle upstream connection before Tomcat's keepAliveTimeout (60 s) closes it
        Matcher idle = Pattern.compile("keepalive_timeout (\\d+)s;").matcher(conf);
        assertTrue(idle.find());
        assertTrue(Integer.parseInt(idle.group(1)) < 60, idle.group());
    }

    @Test
    void neverAllowsRetryingAPostThatReachedAServer() {
        String directives = conf.replaceAll("(?m)\\s*#.*$", "");
        // nginx's default, made explicit: never "non_idempotent", which would re-send a POST a dead server received
        assertEquals(
                List.of("proxy_next_upstream error timeout;"),
                directives
                        .lines()
                        .map(String::strip)
                        .filter(l -> l.startsWith("proxy_next_upstream"))
                        .toList());
        assertFalse(directives.contains("non_idempotent"), conf);
    }

    @Test
    void answersItsOwnErrorsAsJsonMessages() {
        for (int status : List.of(400, 404, 413, 494, 502, 504)) {
            Matcher page = Pattern.compile("error_page " + status + " (\\S+);").matcher(conf);
            assertTrue(page.find(), "error_page " + status);
            Matcher location = Pattern.compile("location = " + Pattern.quote(page.group(1))
                            + " \\{\\s+internal; default_type application/json; return (\\d+) '([^']*)';\\s+}")
                    .matcher(conf);
            assertTrue(location.find(), "the location of " + page.group(1) + " in\n" + conf);
            assertEquals(status == 494 ? 400 : status, Integer.parseInt(location.group(1)));
            JsonObject body = JsonParser.parseString(location.group(2)).getAsJsonObject();
            assertEquals(1, body.size(), location.group(2));
            assertFalse(body.get("message").getAsString().isBlank());
        }
        assertTrue(NginxConf.OWN_ERRORS.get(502).contains("Idempotency-Key"));
    }

    @Test
    void buffersWholeRequestsSoASlowClientNeverHoldsAServerThread() {
        String directives = conf.replaceAll("(?m)\\s*#.*$", "");
        assertEquals("on", directive(directives, "proxy_request_buffering"), "bodies are read whole before proxying");
        assertEquals("on", directive(directives, "proxy_buffering"), "answers are taken whole from the server");
        for (String timeout : List.of("client_header_timeout", "client_body_timeout", "send_timeout")) {
            int seconds = Integer.parseInt(directive(directives, timeout).replace("s", ""));
            assertTrue(seconds >= 1 && seconds <= 10, timeout + " " + seconds);
        }
        assertEquals("on", directive(directives, "reset_timedout_connection"));
        // the API's own limit (4096 bytes, the server's Rules.MAX_BODY_BYTES), held in memory
        assertEquals("4096", directive(directives, "client_max_body_size"));
        assertEquals("4096", directive(directives, "client_body_buffer_size"));
        assertTrue(NginxConf.OWN_ERRORS.get(413).contains("4096"), NginxConf.OWN_ERRORS.get(413));
        assertTrue(NginxConf.OWN_ERRORS.containsKey(408), "a client too slow gets JSON too");
        // buffering must not cost the kept-alive upstream connections
        assertTrue(directives.contains("keepalive 256;"), conf);
    }

    @Test
    void capsTheAnswersAClientThatNeverReadsCanPark() {
        Matcher listen = Pattern.compile("\\n\\s*listen 127\\.0\\.0\\.1:8080 backlog=1024 sndbuf=(\\d+) rcvbuf=(\\d+);")
                .matcher(conf);
        assertTrue(listen.find(), conf);
        // a few small answers, not Linux's autotuned megabytes: each parked answer is a request a server served
        assertTrue(Integer.parseInt(listen.group(1)) <= 8192, listen.group());
        // the API's largest request (8 KiB of headers, a 4 KiB body) still fits in one receive window
        assertTrue(Integer.parseInt(listen.group(2)) >= 12 * 1024, listen.group());
        // the hundreds that reconnect after send_timeout are accepted in one turn, not one per turn
        assertTrue(conf.matches("(?s).*events \\{[^}]*\\n\\s*multi_accept on;.*"), conf);
    }

    @Test
    void needsAServerAndAPort() {
        assertThrows(IllegalArgumentException.class, () -> new NginxConf(8080, List.of(), DIR));
        assertThrows(IllegalArgumentException.class, () -> new NginxConf(0, List.of(1), DIR));
    }

    /** The value of the one {@code name} directive in {@code directives}. */
    private static String directive(String directives, String name) {
        List<String> values = directives
                .lines()
                .map(String::strip)
                .filter(l -> l.startsWith(name + " "))
                .map(l -> l.substring(name.length() + 1, l.length() - 1))
                .toList();
        assertEquals(1, values.size(), name + ": " + values);
        return values.get(0);
    }

    private long count(String regex) {
        return Pattern.compile(regex).matcher(conf).results().count();
    }
}
