package io.arbiter.decision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Problem;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.WorkRequests;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The work budgets of docs/api.md "Limits" (issue 44): a request within every field limit whose work is over its
 * target's budget is refused before any rule runs, with a 400 naming the dimensions, their values, the work and the
 * budget; a large request under the budget is decided, and its response stays within the bound the cost model states.
 */
class WorkBudgetTest {

    private static final Decisions DECISIONS = new Decisions(PolicyTypeRegistry.discover(),
            Fixtures.snapshot(Fixtures.embeddedPolicy()));

    static {
        DECISIONS.setDecisionDeadline(Duration.ofMinutes(10)); // shared machines are slow: no wall-clock in these tests
    }

    // ---- implementation ------------------------------------------------------------------------------------------

    @Test
    void implementationOverItsBudgetIsRefusedNamingItsDimensions() {
        // 100 items of 10 attributes each, and the embedded global policy's 2 pattern items (of 1 constraint), with
        // 30 Implementations: 3 x 102 x 30 + 30 x 1,001 + 102² = 49,614 units
        String problem = refused("implementation", WorkRequests.attributeConstraints(100, 30, 10));
        assertTrue(problem.contains("49,614 units"), problem);
        assertTrue(problem.contains("oneOf items (of the rules that can apply, in every policy) = 102"), problem);
        assertTrue(problem.contains("Implementations of the Interface (catalog and inline) = 30"), problem);
        assertTrue(problem.contains("constraints (distinct attributes and requires of those items) = 1,001"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.IMPLEMENTATION_WORK)), problem);
        assertTrue(problem.contains("fewer oneOf items"), problem);
    }

    /** Items of rules keyed on the same Interface merge into one list, placed by comparing them with each other. */
    @Test
    void implementationItemsArePairedWithEachOtherEvenWithoutImplementations() {
        // rules for the Interface of 100 items each in the action policy and a workflow policy, and the global
        // policy's 2 items: 202² = 40,804 units
        ObjectNode request = CostlyRequests.explainRequest(100, 0, false);
        request.putArray("workflowPolicies").add(request.get("actionPolicy").deepCopy());
        String problem = refused("implementation", request);
        assertTrue(problem.contains("40,804 units"), problem);
        assertTrue(problem.contains("oneOf items (of the rules that can apply, in every policy) = 202"), problem);
    }

    @Test
    void implementationUnderItsBudgetIsDecided() {
        // 3 x 20 items (and the global policy's 2) x 250 Implementations + 250 x 1 + 22² = 17,234 units: every
        // Implementation matches every item
        ObjectNode request = CostlyRequests.explainRequest(0, 250, false);
        com.fasterxml.jackson.databind.node.ArrayNode oneOf = (com.fasterxml.jackson.databind.node.ArrayNode)
                request.get("actionPolicy").get("interface").get("rules").get(0).get("oneOf");
        for (int i = 0; i < 20; i++) {
            oneOf.addObject();
        }
        JsonNode decided = decide("implementation", request);
        assertEquals("SELECTED", decided.path("outcome").asText(), decided.toString().substring(0, 200));
        assertEquals(250, decided.path("candidates").size());
        // a trial and a match or a reason per (item, Implementation) pair, and a few per item and policy: linear in
        // the work
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 2 * 22 * 250 + 22 * 10 + 100, "firings: " + firings);
    }

    // ---- backend -------------------------------------------------------------------------------------------------

    @Test
    void backendOverItsBudgetIsRefusedNamingItsDimensions() {
        // patterns cap.a.* to cap.a.(20 times).*, each with and without a revision, covering each of 1,000 Types:
        // 1,000 x 40 + 1,000 x 40² + 40 = 1,640,040 units
        String problem = refused("backend", WorkRequests.nestedPatterns(20, 1_000));
        assertTrue(problem.contains("1,640,040 units"), problem);
        assertTrue(problem.contains("typeRefs = 1,000"), problem);
        assertTrue(problem.contains("pattern rules = 40"), problem);
        assertTrue(problem.contains("candidate (typeRef, rule) pairs = 40,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.BACKEND_WORK)), problem);
        assertTrue(problem.contains("split typeRefs"), problem);
    }

    @Test
    void backendUnderItsBudgetIsDecidedWithFiringsBoundedByItsCandidates() {
        // 1,000 Types each covered by 18 patterns: 18,000 + 324,000 + 18 units
        JsonNode decided = decide("backend", WorkRequests.nestedPatterns(9, 1_000));
        assertEquals(1_000, decided.path("backends").size());
        assertEquals("PATTERN_REVISION", decided.path("backends").get(999).path("matchedBy").asText());
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 2 * 18 + 3 * 1_000 + 18_000, "firings: " + firings);
    }

    // ---- rollout -------------------------------------------------------------------------------------------------

    @Test
    void rolloutOverItsBudgetIsRefusedNamingItsDimensions() {
        // 1,000 groups named g, 100 mandatory entries naming g: 1,000 + 1,000 + 100,000 units
        String problem = refused("rollout", WorkRequests.sameNamedGroups(1_000, 100, 1_000));
        assertTrue(problem.contains("102,000 units"), problem);
        assertTrue(problem.contains("decisionGroups = 1,000"), problem);
        assertTrue(problem.contains("mandatoryDecisionGroups entries = 100"), problem);
        assertTrue(problem.contains("mandatory selections (entry, group it names) pairs = 100,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.ROLLOUT_WORK)), problem);
        assertTrue(problem.contains("name each mandatory group once"), problem);
    }

    @Test
    void rolloutUnderItsBudgetIsDecided() {
        // the most clusters and groups a rollout may have, and 20 entries selecting every group: 41,000 units
        JsonNode decided = decide("rollout", WorkRequests.sameNamedGroups(1_000, 20, Limits.CLUSTERS));
        assertEquals(Limits.CLUSTERS, decided.path("clusterStatuses").size());
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 2 * Limits.CLUSTERS + 5 * 1_000 + 100, "firings: " + firings);
    }

    // ---- dependencies --------------------------------------------------------------------------------------------

    @Test
    void dependenciesOverTheirBudgetAreRefusedNamingTheirDimensions() {
        // 20 policies of 100 templates, each policy depending on 10 ConfigMaps of 253-character names, none observed:
        // 20,000 template dependencies each of weight 1 + 263 / 32 = 9, a 158 KB request that answered 43 MB
        String problem = refused("dependencies", WorkRequests.templatesAndObserved(20, 100, 10, 0, 253));
        assertTrue(problem.contains("182,020 units"), problem);
        assertTrue(problem.contains("policies = 20"), problem);
        assertTrue(problem.contains("policyTemplates = 2,000"), problem);
        assertTrue(problem.contains("by the length of what they name) = 180,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.DEPENDENCIES_WORK)), problem);
        assertTrue(problem.contains("split the policies"), problem);
    }

    @Test
    void dependenciesUnderTheirBudgetAreDecidedWithFiringsLinearInTheirWork() {
        // as many template dependencies as a request may have, none met: 20 + 2,000 + 20,000 = 22,020 units
        JsonNode decided = decide("dependencies", WorkRequests.templatesAndObserved(20, 100, 10, 0, 0));
        assertEquals(20, decided.path("policies").size());
        assertEquals("PENDING", decided.path("policies").get(19).path("templates").get(99).path("state").asText());
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 3 * 22_020, "firings: " + firings);
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private static JsonNode decide(String target, ObjectNode body) {
        return DECISIONS.decide(target, CostlyRequests.bytes(body), "application/json");
    }

    /** The request is refused as a request (400 INVALID_REQUEST) at {@code $}: its problem. */
    private static String refused(String target, ObjectNode body) {
        DecisionException refused = assertThrows(DecisionException.class, () -> decide(target, body));
        assertEquals(DecisionException.Code.INVALID_REQUEST, refused.code(), refused.getMessage());
        Problem problem = refused.problems().get(0);
        assertEquals("$", problem.path(), problem.toString());
        assertTrue(problem.problem().contains("over the budget"), problem.problem());
        return problem.problem();
    }
}
