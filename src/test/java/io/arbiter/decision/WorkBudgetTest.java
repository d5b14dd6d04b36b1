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
        // 20 x 1,000 + 20 prefixes x 1,000 + 9 x 40 rules + 40,000 covers x (9 + 48-character paths / 32) + 40
        // = 440,400 units
        String problem = refused("backend", WorkRequests.nestedPatterns(20, 1_000));
        assertTrue(problem.contains("440,400 units"), problem);
        assertTrue(problem.contains("typeRefs = 1,000"), problem);
        assertTrue(problem.contains("prefixes of their paths as long as a pattern's = 20,000"), problem);
        assertTrue(problem.contains("pattern rules = 40"), problem);
        assertTrue(problem.contains("(typeRef, pattern with one of its prefixes) pairs = 40,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.BACKEND_WORK)), problem);
        assertTrue(problem.contains("split typeRefs"), problem);
    }

    @Test
    void backendUnderItsBudgetIsDecidedWithFiringsBoundedByItsCovers() {
        // 1,000 Types each covered by 8 patterns: 20,000 + 4,000 + 9 x (8,000 + 8) + 8 = 96,080 units
        JsonNode decided = decide("backend", WorkRequests.nestedPatterns(4, 1_000));
        assertEquals(1_000, decided.path("backends").size());
        assertEquals("PATTERN_REVISION", decided.path("backends").get(999).path("matchedBy").asText());
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 2 * 8 + 3 * 1_000 + 8_000, "firings: " + firings);
    }

    /**
     * Patterns are looked up by the Types' prefixes, not tried against every Type: 1,000 patterns that cover none of
     * 1,000 Types cost their firings and a lookup per prefix of a pattern's length (the typeRefs × pattern rules of
     * the model before, a million units, were refused).
     */
    @Test
    void backendPatternsThatCoverNoTypeCostNoWorkPerType() {
        ObjectNode request = io.arbiter.document.Documents.jsonMapper().createObjectNode();
        var rules = request.putObject("actionPolicy").putObject("typeInstance").putArray("rules");
        for (int p = 0; p < 1_000; p++) {
            rules.addObject().<ObjectNode>set("typeRef", io.arbiter.document.Documents.jsonMapper().createObjectNode()
                    .put("path", "cap.z" + p + ".*")).putObject("backend").put("id", WorkRequests.HELM_STORAGE);
        }
        var refs = request.putArray("typeRefs");
        for (int t = 0; t < 1_000; t++) {
            // prefixes of lengths 4, 7, 9, 11: those of 7 and 9 are looked up (patterns cap.z1. to cap.z999. have 7 to 9)
            refs.addObject().put("path", "cap.zz.a.a.t" + t).put("revision", "0.1.0");
        }
        JsonNode decided = decide("backend", request);
        assertEquals(1_000, decided.path("backends").size());
        decided.path("backends").forEach(backend -> assertEquals("BUILTIN", backend.path("matchedBy").asText()));
    }

    // ---- rollout -------------------------------------------------------------------------------------------------

    @Test
    void rolloutOverItsBudgetIsRefusedNamingItsDimensions() {
        // 1,000 groups named g, 100 mandatory entries naming g: 5 x 1,000 + 1,000 + 100,000 units
        String problem = refused("rollout", WorkRequests.sameNamedGroups(1_000, 100, 1_000));
        assertTrue(problem.contains("106,000 units"), problem);
        assertTrue(problem.contains("decisionGroups = 1,000"), problem);
        assertTrue(problem.contains("mandatoryDecisionGroups entries = 100"), problem);
        assertTrue(problem.contains("mandatory selections (entry, group it names) pairs = 100,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.ROLLOUT_WORK)), problem);
        assertTrue(problem.contains("name each mandatory group once"), problem);
    }

    @Test
    void rolloutUnderItsBudgetIsDecided() {
        // 7,000 clusters in 1,000 groups of one name, 3 entries selecting every group: 35,000 + 1,000 + 3,000 units
        JsonNode decided = decide("rollout", WorkRequests.sameNamedGroups(1_000, 3, 7_000));
        assertEquals(7_000, decided.path("clusterStatuses").size());
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 2 * 7_000 + 5 * 1_000 + 100, "firings: " + firings);
    }

    /** A cluster weighs more than a group: at the cluster limit a rollout is over its budget (it held up to 170 MiB). */
    @Test
    void rolloutAtTheClusterLimitIsRefused() {
        String problem = refused("rollout", WorkRequests.sameNamedGroups(1, 1, Limits.CLUSTERS));
        assertTrue(problem.contains("100,002 units"), problem);
        assertTrue(problem.contains("clusters (of the decision groups) = 20,000"), problem);
    }

    // ---- dependencies --------------------------------------------------------------------------------------------

    @Test
    void dependenciesOverTheirBudgetAreRefusedNamingTheirDimensions() {
        // 20 policies of 100 templates, each policy depending on 10 ConfigMaps of 253-character names, none observed:
        // 20,000 template dependencies each of weight 1 + 263 / 32 = 9, a 158 KB request that answered 43 MB
        String problem = refused("dependencies", WorkRequests.templatesAndObserved(20, 100, 10, 0, 253));
        // 5 x 20 + 2 x 2,000 + 180,000 = 184,100 units
        assertTrue(problem.contains("184,100 units"), problem);
        assertTrue(problem.contains("policies = 20"), problem);
        assertTrue(problem.contains("policyTemplates = 2,000"), problem);
        assertTrue(problem.contains("by the length of what they name) = 180,000"), problem);
        assertTrue(problem.contains("budget of " + "%,d".formatted(Limits.DEPENDENCIES_WORK)), problem);
        assertTrue(problem.contains("split the policies"), problem);
    }

    /** Many policies hold more than their templates: a chain of 2,000 held up to 94 MB. */
    @Test
    void dependenciesOfManyPoliciesAreWeighedByThem() {
        // 5 x 1,400 + 2 x 1,400 + 1,400 = 11,200 units
        String problem = refused("dependencies", CostlyRequests.dependencyChain(1_400, false));
        assertTrue(problem.contains("11,200 units"), problem);
        assertEquals(1_300, decide("dependencies", CostlyRequests.dependencyChain(1_300, false)).path("policies").size());
    }

    @Test
    void dependenciesAtTheTemplateDependencyLimitUnmetAreRefused() {
        // as many template dependencies as a request may have, none met: 100 + 4,000 + 20,000 = 24,100 units (answered
        // 14 MB with 44,220 firings and held up to 190 MB before a policy's unmet dependencies were gathered once)
        String problem = refused("dependencies", WorkRequests.templatesAndObserved(20, 100, 10, 0, 0));
        assertTrue(problem.contains("24,100 units"), problem);
    }

    @Test
    void dependenciesUnderTheirBudgetAreDecidedWithFiringsPerTemplateNotPerTemplateDependency() {
        // 9 policies of 100 templates depending on 10 ConfigMaps, none met: 45 + 1,800 + 9,000 = 10,845 units
        JsonNode decided = decide("dependencies", WorkRequests.templatesAndObserved(9, 100, 10, 0, 0));
        assertEquals(9, decided.path("policies").size());
        JsonNode last = decided.path("policies").get(8).path("templates").get(99);
        assertEquals("PENDING", last.path("state").asText());
        assertEquals(10, last.path("unmet").size());
        assertEquals(10, last.path("waitingOn").size());
        // per template: its inherited unmet set, its state, its action, what it waits on; per policy dependency: its
        // being wanted (nothing drops it) and its judgement; per policy: its unmet set and compliance. Not a firing per
        // (template, dependency): 10,000 of them
        int firings = decided.path("firedRules").size();
        assertTrue(firings <= 4 * 900 + 2 * 9 * 10 + 2 * 9, "firings: " + firings);
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
