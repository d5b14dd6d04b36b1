package io.arbiter.audit;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code GET /metrics} counts per decision. */
class MetricsTest {

    @Test
    void ruleFiringsAreCountedPerRuleWhetherOrNotTheyFireInARow() {
        Metrics metrics = new Metrics();

        metrics.decision("dependencies", "DECIDED", 1_000_000, List.of("p.A", "p.A", "p.A", "p.B", "p.A", "p.C", "p.C"));
        metrics.decision("dependencies", "DECIDED", 1_000_000, List.of("p.B"));

        String scraped = metrics.scrape();
        assertTrue(scraped.contains("arbiter_rule_firings_total{rule=\"p.A\"} 4.0"), scraped);
        assertTrue(scraped.contains("arbiter_rule_firings_total{rule=\"p.B\"} 2.0"), scraped);
        assertTrue(scraped.contains("arbiter_rule_firings_total{rule=\"p.C\"} 2.0"), scraped);
        assertTrue(scraped.contains("arbiter_decisions_total{endpoint=\"dependencies\",outcome=\"DECIDED\"} 2.0"), scraped);
    }

    @Test
    void aDecisionWithoutFiringsCountsNoRule() {
        Metrics metrics = new Metrics();

        metrics.decision("implementation", "NO_RULE", 1_000_000, List.of());

        String scraped = metrics.scrape();
        assertTrue(scraped.contains("arbiter_decisions_total{endpoint=\"implementation\",outcome=\"NO_RULE\"} 1.0"), scraped);
        assertTrue(!scraped.contains("arbiter_rule_firings_total{"), scraped);
    }
}
