package io.upic.liftride.server.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RedisMemoryTest {
    private static String info(long used, long max) {
        return "# Memory\r\nused_memory:" + used + "\r\nused_memory_human:1M\r\nmaxmemory:" + max
                + "\r\nmaxmemory_human:0B\r\n";
    }

    @Test
    void readsUsedMemoryAndMaxmemoryFromInfo() {
        assertEquals(new RedisMemory(1_000_000, 2_000_000), RedisMemory.parse(info(1_000_000, 2_000_000)));
    }

    @Test
    void isFullFromNinetyFivePercentOfMaxmemoryAndNeverWithoutOne() {
        assertFalse(new RedisMemory(949, 1000).full());
        assertTrue(new RedisMemory(950, 1000).full());
        assertTrue(new RedisMemory(1200, 1000).full());
        assertFalse(new RedisMemory(Long.MAX_VALUE / 2, 0).full());
    }
}
