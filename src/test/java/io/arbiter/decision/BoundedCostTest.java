package io.arbiter.decision;

import io.arbiter.runtime.Decisions;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.engine.DecisionDeadline;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Costly requests under the limits stay linear in size, and every decision has a deadline and a firings limit. */
class BoundedCostTest {

    private static final Decisions DECISIONS = new Decisions(PolicyTypeRegistry.discover(),
            Fixtures.snapshot(Fixtures.embeddedPolicy()));

    static {
        DECISIONS.setDecisionDeadline(Duration.ofMinutes(10)); // shared machines are slow: no wall-clock in these tests
    }

    /** Waiting chains used to be repeated per template (quadratic): twice the chain is now about twice the response. */
    @Test
    void aDependencyChainsResponseIsLinearInItsLength() {
        long single = responseBytes(CostlyRequests.dependencyChain(300, false));
        long twice = responseBytes(CostlyRequests.dependencyChain(600, false));
        assertTrue(twice < 2.5 * single, "300 policies: " + single + " bytes, 600: " + twice);
    }

    /** Cycles used to be found by a reachability closure, a fact per pair of policies on the loop. */
    @Test
    void aDependencyCyclesResponseIsLinearInItsLength() {
        JsonNode small = decide("dependencies", CostlyRequests.dependencyChain(300, true));
        JsonNode large = decide("dependencies", CostlyRequests.dependencyChain(600, true));
        assertEquals(600, large.path("cycles").get(0).size(), "one cycle through every policy");
        assertEquals(600, large.path("pendingPolicies").size(), "each policy is waited on, once");
        long single = small.toString().length();
        long twice = large.toString().length();
        assertTrue(twice < 2.5 * single, "300 policies: " + single + " bytes, 600: " + twice);
    }

    /**
     * Issue 44: 100 oneOf items each listing one attribute constraint 100 times, tried with 100 inline Implementations
     * (190 KB). The matching rule walked the item's list, and per entry the Implementation's, for every pair inside one
     * network evaluation: out of memory after 42 s under -Xmx512m, where neither the deadline nor the firings limit
     * could act. Its work is now over the budget, and refused before any rule runs. Constraints are facts, each once:
     * a request under the budget that repeats its constraints as often derives no fact per pair, and an explanation
     * gives one reason per pair.
     */
    @Test
    void oneOfItemsRepeatingAConstraintAreRefusedOverTheBudgetAndDecidedWithOneReasonPerTrialUnderIt() {
        com.fasterxml.jackson.databind.node.ObjectNode request = CostlyRequests.repeatedAttributeRequest(100, 100, 100, false);
        assertTrue(CostlyRequests.bytes(request).length > 180_000, "the request of the issue");
        DecisionException refused = assertThrows(DecisionException.class, () -> decide("implementation", request));
        assertTrue(refused.getMessage().contains("over its work budget"), refused.getMessage());

        // 10 items listing cap.a 100 times each, with 100 Implementations: one distinct constraint per item, about 2,500
        // units; counted per listing it would be about 100,000, over the budget
        JsonNode decided = decide("implementation", CostlyRequests.repeatedAttributeRequest(10, 100, 100, false));
        assertEquals("NO_MATCH", decided.path("outcome").asText());
        int firings = decided.path("firedRules").size();
        // 12 items (the global policy's 2) x 100 Implementations: a trial and at most a reason or a match per pair,
        // and a few per item; nothing per listing
        assertTrue(firings <= 2 * 12 * 100 + 12 * 10 + 100, "a trial and a reason per pair: " + firings);

        JsonNode explained = decide("implementation", CostlyRequests.repeatedAttributeRequest(10, 100, 100, true));
        assertEquals(10, explained.path("explanation").size());
        for (JsonNode item : explained.path("explanation")) {
            assertEquals(100, item.path("rejected").size());
            item.path("rejected").forEach(rejected -> assertEquals("[\"missing attribute cap.a\"]",
                    rejected.path("reasons").toString(), "the constraint once, however often it is listed"));
        }
        assertEquals(firings, explained.path("firedRules").size(), "explaining reads the decision's own Rejections");
    }

    @Test
    void aDecisionPastItsDeadlineIsRefusedAndTheNextOneIsDecided() {
        Decisions hurried = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        hurried.setDecisionDeadline(Duration.ofMillis(1));
        DecisionDeadline.ExceededException refused = assertThrows(DecisionDeadline.ExceededException.class,
                () -> hurried.decide("dependencies", CostlyRequests.bytes(CostlyRequests.dependencyChain(200, true)),
                        "application/json"));
        assertTrue(refused.isDeadline());
        assertTrue(refused.getMessage().contains("deadline of 1 ms"), refused.getMessage());
        // sessions of refused decisions are not handed out again in a halted state
        JsonNode next = DECISIONS.decide("dependencies", CostlyRequests.bytes(CostlyRequests.dependencyChain(3, false)),
                "application/json");
        assertEquals("PENDING", next.path("policies").get(0).path("templates").get(0).path("state").asText());
    }

    @Test
    void aDecisionNeedingMoreFiringsThanItsLimitIsRefused() {
        DecisionDeadline few = new DecisionDeadline(System.nanoTime() + Duration.ofMinutes(10).toNanos(),
                Duration.ofMinutes(10), 10);
        DecisionDeadline.ExceededException refused = assertThrows(DecisionDeadline.ExceededException.class,
                () -> few.within(() -> io.arbiter.decision.dependencies.DependenciesDecider.decide(
                        CostlyRequests.dependencyChain(20, false),
                        Fixtures.snapshot(Fixtures.embeddedPolicy()).ruleBase("ocm.dependencies"))));
        assertFalse(refused.isDeadline());
        assertTrue(refused.getMessage().contains("more than 10 rule firings"), refused.getMessage());
    }

    private static long responseBytes(com.fasterxml.jackson.databind.node.ObjectNode request) {
        return decide("dependencies", request).toString().length();
    }

    private static JsonNode decide(String target, com.fasterxml.jackson.databind.node.ObjectNode request) {
        return DECISIONS.decide(target, CostlyRequests.bytes(request), "application/json");
    }
}
