package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.upic.liftride.server.store.redis.RedisAccess;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class StoreSpecTest {
    @Test
    void readsEveryForm() {
        assertEquals(new StoreSpec(StoreSpec.Kind.MEMORY, List.of()), StoreSpec.parse("memory"));
        assertEquals(
                new StoreSpec(StoreSpec.Kind.REDIS, List.of(new HostAndPort("cache.example", 6380))),
                StoreSpec.parse("redis://cache.example:6380"));
        assertEquals(
                new StoreSpec(StoreSpec.Kind.REDIS, List.of(new HostAndPort("10.0.1.5", 6379))),
                StoreSpec.parse("redis://10.0.1.5/"),
                "the port defaults to Redis's 6379 and a trailing slash is fine");
        assertEquals(
                new StoreSpec(StoreSpec.Kind.REDIS, List.of(new HostAndPort("::1", 7000))),
                StoreSpec.parse("redis://[::1]:7000"));
        assertEquals(
                new StoreSpec(
                        StoreSpec.Kind.REDIS_CLUSTER,
                        List.of(new HostAndPort("10.0.1.5", 7000), new HostAndPort("10.0.1.6", 7001))),
                StoreSpec.parse("redis-cluster://10.0.1.5:7000,10.0.1.6:7001"));
    }

    @Test
    void writesItselfBackAsTheUserWouldType() {
        for (String text : List.of("memory", "redis://10.0.1.5:6379", "redis-cluster://a:1,b:2")) {
            assertEquals(text, StoreSpec.parse(text).toString());
        }
    }

    @Test
    void refusesAnythingElseInOneLineNamingTheValue() {
        String forms = "store must be " + StoreSpec.FORMS + "; ";
        assertEquals(forms + "got \"Memory\"", message("Memory"));
        assertEquals(forms + "got \"\"", message(""));
        assertEquals(forms + "got \"https://h:1\"", message("https://h:1"));
        assertEquals(forms + "the port must be an integer in 1..65535; got \"redis://h:0\"", message("redis://h:0"));
        assertEquals(
                forms + "the port must be an integer in 1..65535; got \"redis://h:+80\"", message("redis://h:+80"));
        assertEquals(forms + "a host is missing or malformed; got \"redis://:6379\"", message("redis://:6379"));
        assertEquals(
                forms + "a host is missing or malformed; got \"redis-cluster://a:1,\"",
                message("redis-cluster://a:1,"));
    }

    @Test
    void readsTlsAndAnAclUserWithThePasswordInTheUrlOrTheEnvironment() {
        StoreSpec inUrl = StoreSpec.parse("rediss://liftride:s3cr%40t@cache.example:6380", null);
        assertEquals(StoreSpec.Kind.REDIS, inUrl.kind());
        assertEquals(new RedisAccess(true, "liftride", "s3cr@t"), inUrl.access());
        assertEquals(List.of(new HostAndPort("cache.example", 6380)), inUrl.nodes());
        assertEquals(
                new RedisAccess(true, "liftride", "from-env"),
                StoreSpec.parse("rediss://liftride@cache.example:6380", "from-env")
                        .access());
        assertEquals(
                new RedisAccess(false, null, "legacy"),
                StoreSpec.parse("redis://:legacy@h:1", null).access());
        StoreSpec cluster = StoreSpec.parse("rediss-cluster://u:p@a:1,b:2", null);
        assertEquals(StoreSpec.Kind.REDIS_CLUSTER, cluster.kind());
        assertEquals(new RedisAccess(true, "u", "p"), cluster.access());
        assertEquals(2, cluster.nodes().size());
    }

    @Test
    void neverShowsThePasswordButHandsItOnWhole() {
        String secret = "Hunter2+/:@x";
        String url = "rediss://liftride:" + URLEncoder.encode(secret, StandardCharsets.UTF_8) + "@cache.example:6380";
        StoreSpec spec = StoreSpec.parse(url, null);
        assertEquals("rediss://liftride@cache.example:6380", spec.toString());
        assertFalse(spec.access().toString().contains("Hunter2"), spec.access().toString());
        assertEquals(spec, StoreSpec.parse(spec.uri(), null), "the URI handed to the web application reads back");
        assertEquals(
                "rediss://:***@h:1",
                StoreSpec.parse("rediss://:Hunter2@h:1", null).toString());
        assertEquals(
                "rediss://liftride@h:1",
                StoreSpec.parse("rediss://liftride@h:1", "Hunter2").toString());
        for (String bad : List.of(
                "rediss://liftride:Hunter2@h:0",
                "rediss://liftride:Hunter2@:6379",
                "rediss://liftride:Hunter2%zz@h:1",
                "redis://a:Hunter2@h:1,b:2",
                "rediss:/liftride:Hunter2@h:1",
                "http://liftride:Hunter2@h:1")) {
            String message = message(bad);
            assertFalse(message.contains("Hunter2"), message);
            assertTrue(message.contains("***"), message);
        }
        assertFalse(message("rediss://liftride@h:1").contains("Hunter2"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> StoreSpec.parse(text, null))
                .getMessage();
    }
}
