package io.upic.liftride.server.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HealthReportTest {
    @Test
    void liveIsUpWithItsOneCheck() {
        HealthReport live = HealthReport.live();
        assertTrue(live.up());
        assertEquals(
                "{\"status\":\"UP\",\"checks\":{\"jvm\":{\"status\":\"UP\",\"message\":\"answering\"}}}",
                live.toJson());
    }

    @Test
    void oneCheckDownMakesTheWholeReportDownAndSaysWhich() {
        HealthReport report = new HealthReport()
                .check("draining", true, "serving")
                .check("store", false, "redis://127.0.0.1:6379: no answer within 250 ms")
                .check("backlog", true, "0 rides queued");
        assertFalse(report.up());
        assertEquals(
                "{\"status\":\"DOWN\",\"checks\":{\"draining\":{\"status\":\"UP\",\"message\":\"serving\"},"
                        + "\"store\":{\"status\":\"DOWN\",\"message\":\"redis://127.0.0.1:6379: no answer within 250 ms\"},"
                        + "\"backlog\":{\"status\":\"UP\",\"message\":\"0 rides queued\"}}}",
                report.toJson());
    }

    @Test
    void theBacklogLimitIsHalfTheQueueSoReadinessFailsBeforeRidesAreRefused() {
        assertEquals(32_768, HealthReport.backlogLimit(65_536));
        assertEquals(1, HealthReport.backlogLimit(1));
        assertEquals(Integer.MAX_VALUE, HealthReport.backlogLimit(Integer.MAX_VALUE));
    }
}
