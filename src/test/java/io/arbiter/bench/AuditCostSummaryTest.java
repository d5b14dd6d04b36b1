package io.arbiter.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The summary's interval: as wide as the forks disagree, and none when every iteration agrees. */
class AuditCostSummaryTest {

    @Test
    void identicalIterationsGiveAnIntervalOfThatValue() {
        List<Double> fork = List.of(0.08, 0.08, 0.08, 0.08);

        assertArrayEquals(new double[]{0.08, 0.08}, AuditCostSummary.bootstrapInterval(List.of(fork, fork, fork), new Random(1)));
    }

    @Test
    void forksThatDisagreeWidenTheIntervalToCoverBoth() {
        List<Double> low = List.of(0.05, 0.06, 0.05, 0.06, 0.05, 0.06);
        List<Double> high = List.of(0.14, 0.15, 0.14, 0.15, 0.14, 0.15);
        List<Double> tight = List.of(0.095, 0.10, 0.105, 0.095, 0.10, 0.105);

        double[] disagreeing = AuditCostSummary.bootstrapInterval(List.of(low, high, low, high), new Random(1));
        double[] agreeing = AuditCostSummary.bootstrapInterval(List.of(tight, tight, tight, tight), new Random(1));

        assertTrue(disagreeing[0] <= 0.06 && disagreeing[1] >= 0.14, disagreeing[0] + " to " + disagreeing[1]);
        assertTrue(agreeing[0] >= 0.095 && agreeing[1] <= 0.105, agreeing[0] + " to " + agreeing[1]);
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(0.15, AuditCostSummary.median(List.of(0.3, 0.1, 0.2, 0.1)), 1e-12);
        assertEquals(0.2, AuditCostSummary.median(List.of(0.3, 0.1, 0.2)), 1e-12);
    }
}
