package io.arbiter.audit;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recent-decision index: bounded by count and by the heap its records keep, oldest forgotten first. */
class RecentDecisionsTest {

    /** A record that keeps {@code bytes} bytes. */
    private static DecisionRecord record(String id, int bytes) {
        return new DecisionRecord(id, "policy-1", new byte[bytes]);
    }

    private static boolean has(RecentDecisions recent, String id) {
        return recent.find(id).isPresent();
    }

    @Test
    void theOldestIsForgottenBeyondTheCount() {
        RecentDecisions recent = new RecentDecisions(2, 1_000);

        recent.add(record("a", 10));
        recent.add(record("b", 10));
        recent.add(record("c", 10));

        assertEquals(Optional.empty(), recent.find("a"));
        assertTrue(has(recent, "b") && has(recent, "c"));
        assertEquals(20, recent.retainedBytes());
    }

    @Test
    void theOldestAreForgottenBeyondTheHeapBudget() {
        RecentDecisions recent = new RecentDecisions(100, 1_000);
        recent.add(record("a", 400));
        recent.add(record("b", 400));
        recent.add(record("c", 200));
        assertEquals(3, recent.size(), "1,000 bytes: at the budget, not over it");

        recent.add(record("d", 500));

        assertEquals(Optional.empty(), recent.find("a"));
        assertEquals(Optional.empty(), recent.find("b"));
        assertTrue(has(recent, "c") && has(recent, "d"));
        assertEquals(700, recent.retainedBytes());
    }

    @Test
    void theNewestIsKeptEvenWhenItAloneIsOverTheBudget() {
        RecentDecisions recent = new RecentDecisions(100, 1_000);
        recent.add(record("small", 100));

        recent.add(record("huge", 5_000));

        assertTrue(has(recent, "huge"));
        assertEquals(Optional.empty(), recent.find("small"));
        assertEquals(1, recent.size());
        assertEquals(5_000, recent.retainedBytes());
    }

    @Test
    void anIndexWithoutRoomIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RecentDecisions(0, 1_000));
        assertTrue(e.getMessage().contains("capacity 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RecentDecisions(10, 0));
    }
}
