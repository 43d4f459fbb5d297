package io.upic.liftride.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        String forms = "store must be memory, redis://HOST:PORT or redis-cluster://HOST:PORT[,HOST:PORT...]; ";
        assertEquals(forms + "got \"Memory\"", message("Memory"));
        assertEquals(forms + "got \"\"", message(""));
        assertEquals(forms + "got \"rediss://h:1\"", message("rediss://h:1"));
        assertEquals(forms + "the port must be an integer in 1..65535; got \"redis://h:0\"", message("redis://h:0"));
        assertEquals(
                forms + "the port must be an integer in 1..65535; got \"redis://h:+80\"", message("redis://h:+80"));
        assertEquals(forms + "a host is missing or malformed; got \"redis://:6379\"", message("redis://:6379"));
        assertEquals(
                forms + "a host is missing or malformed; got \"redis-cluster://a:1,\"",
                message("redis-cluster://a:1,"));
        assertEquals(forms + "a host is missing or malformed; got \"redis://u:p@h:1\"", message("redis://u:p@h:1"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> StoreSpec.parse(text))
                .getMessage();
    }
}
