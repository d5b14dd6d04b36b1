package io.arbiter.audit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How much heap the decision log's buffer and the recent-decision index may keep, by the heap there is. */
class AuditSettingsTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void aLargeHeapGivesEach64MiB() {
        assertEquals(64 * MIB, AuditSettings.memoryBudget(768 * MIB));
        assertEquals(64 * MIB, AuditSettings.memoryBudget(16 * 1024 * MIB));
    }

    @Test
    void aSmallHeapGivesEachAnEighthOfIt() {
        assertEquals(32 * MIB, AuditSettings.memoryBudget(256 * MIB));
        assertEquals(8 * MIB, AuditSettings.memoryBudget(64 * MIB));
    }
}
