package io.arbiter.decision;

import io.arbiter.runtime.Decisions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each request limit of docs/api.md "Limits": a request at the limit is decided, one past it is refused with a 400
 * that names the limit at the field that went past it.
 */
class LimitsTest {

    private static final String POLICY_API = "policy.open-cluster-management.io/v1";
    private static final Decisions DECISIONS = new Decisions(PolicyTypeRegistry.discover(),
            Fixtures.snapshot(Fixtures.embeddedPolicy()));

    static {
        // the requests at the limits take about a second on an idle machine; a shared CI machine may be far slower
        DECISIONS.setDecisionDeadline(java.time.Duration.ofMinutes(10));
    }

    // ---- dependencies -------------------------------------------------------------------------------------------

    @Test
    void policies() {
        // without templates: 2,000 policies of a template each are over the dependencies work budget (WorkBudgetTest)
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(n, false);
            body.get("policies").forEach(policy -> ((ObjectNode) policy).remove("policyTemplates"));
            return body;
        }, Limits.POLICIES, "$.policies");
    }

    @Test
    void templatesPerPolicy() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode templates = (ArrayNode) body.get("policies").get(0).get("policyTemplates");
            templates.removeAll();
            for (int t = 0; t < n; t++) {
                templates.addObject().put("name", "t" + t).put("kind", "ConfigurationPolicy");
            }
            return body;
        }, Limits.TEMPLATES_PER_POLICY, "$.policies[0].policyTemplates");
    }

    @Test
    void dependenciesPerPolicy() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode dependencies = (ArrayNode) body.get("policies").get(0).get("dependencies");
            for (int d = 1; d < n; d++) {
                dependencies.addObject().put("apiVersion", POLICY_API).put("kind", "Policy").put("name", "d" + d)
                        .put("compliance", "Compliant");
            }
            return body;
        }, Limits.DEPENDENCIES_PER_OWNER, "$.policies[0].dependencies");
    }

    @Test
    void extraDependenciesPerTemplate() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode extras = ((ObjectNode) body.get("policies").get(0).get("policyTemplates").get(0))
                    .putArray("extraDependencies");
            for (int d = 0; d < n; d++) {
                extras.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "c" + d)
                        .put("compliance", "Compliant");
            }
            return body;
        }, Limits.DEPENDENCIES_PER_OWNER, "$.policies[0].policyTemplates[0].extraDependencies");
    }

    @Test
    void policySetsAndTheirMembers() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode sets = body.putArray("policySets");
            for (int s = 0; s < n; s++) {
                sets.addObject().put("name", "s" + s).put("namespace", "ns").putArray("policies").add("p0");
            }
            return body;
        }, Limits.POLICY_SETS, "$.policySets");
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode members = body.putArray("policySets").addObject().put("name", "s").put("namespace", "ns")
                    .putArray("policies");
            for (int m = 0; m < n; m++) {
                members.add("m" + m);
            }
            return body;
        }, Limits.POLICIES_PER_SET, "$.policySets[0].policies");
    }

    @Test
    void observedObjects() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ArrayNode observed = body.putArray("observed");
            for (int o = 0; o < n; o++) {
                observed.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "c" + o);
            }
            return body;
        }, Limits.OBSERVED, "$.observed");
    }

    /** A PolicySet multiplies a dependency, and a policy's dependencies count once per template: counted after both. */
    @Test
    void templateDependenciesAfterPolicySetExpansion() {
        // 20 policies of 100 templates, each policy depending on a set of `members` members: 2,000 x members
        java.util.function.IntFunction<ObjectNode> request = members -> {
            ObjectNode body = Documents.jsonMapper().createObjectNode();
            ArrayNode setMembers = body.putArray("policySets").addObject().put("name", "all").put("namespace", "ns")
                    .putArray("policies");
            for (int m = 0; m < members; m++) {
                setMembers.add("m" + m);
            }
            ArrayNode policies = body.putArray("policies");
            for (int p = 0; p < 20; p++) {
                ObjectNode policy = policies.addObject().put("name", "p" + p).put("namespace", "ns");
                policy.putArray("dependencies").addObject().put("apiVersion", "policy.open-cluster-management.io/v1beta1")
                        .put("kind", "PolicySet").put("name", "all").put("compliance", "Compliant");
                ArrayNode templates = policy.putArray("policyTemplates");
                for (int t = 0; t < 100; t++) {
                    templates.addObject().put("name", "p" + p + "t" + t).put("kind", "ConfigurationPolicy");
                }
            }
            return body;
        };
        assertEquals(20_000, Limits.TEMPLATE_DEPENDENCIES, "the request below is sized for this limit");
        DecisionException refused = refused("dependencies", request.apply(11));
        Problem problem = refused.problems().get(0);
        assertEquals("$.policies[18]", problem.path(), problem.toString()); // 19 x 100 x 11 = 20,900
        assertTrue(problem.problem().contains("at most 20000"), problem.problem());
        // at the limit, none observed: within the field limits, over the work budget (docs/api.md, "Work budgets")
        Problem atLimit = refused("dependencies", request.apply(10)).problems().get(0);
        assertEquals("$", atLimit.path(), atLimit.toString());
        assertTrue(atLimit.problem().contains("over the budget"), atLimit.problem());
    }

    @Test
    void dependencyNames() {
        assertLimit("dependencies", n -> {
            ObjectNode body = CostlyRequests.dependencyChain(1, false);
            ((ObjectNode) body.get("policies").get(0).get("dependencies").get(0)).put("name", "x".repeat(n));
            return body;
        }, Limits.NAME_LENGTH, "$.policies[0].dependencies[0].name");
    }

    // ---- rollout ---------------------------------------------------------------------------------------------

    @Test
    void clustersAndGroups() {
        // at the cluster limit a rollout is over its work budget (WorkBudgetTest); one more is over the limit
        Problem atLimit = refused("rollout", rollout(1, Limits.CLUSTERS)).problems().get(0);
        assertEquals("$", atLimit.path(), atLimit.toString());
        DecisionException past = refused("rollout", rollout(1, Limits.CLUSTERS + 1));
        assertTrue(past.problems().stream().anyMatch(p -> p.path().equals("$.clusters")
                && p.problem().contains(String.valueOf(Limits.CLUSTERS))), past.problems().toString());
        DECISIONS.decide("rollout", CostlyRequests.bytes(rollout(1, 7_000)), "application/json");
        assertLimit("rollout", n -> rollout(n, 1), Limits.DECISION_GROUPS, "$.decisionGroups");
    }

    @Test
    void clusterNames() {
        assertLimit("rollout", n -> {
            ObjectNode body = rollout(1, 1);
            ((ObjectNode) body.get("clusters").get(0)).put("name", "c".repeat(n));
            ((ArrayNode) body.get("decisionGroups").get(0).get("clusters")).set(0, "c".repeat(n));
            return body;
        }, Limits.NAME_LENGTH, "$.clusters[0].name");
    }

    /** {@code groups} decision groups; {@code clusters} clusters, all in the first group. */
    private static ObjectNode rollout(int groups, int clusters) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.putObject("strategy").put("type", "All");
        ArrayNode decisionGroups = body.putArray("decisionGroups");
        ArrayNode list = body.putArray("clusters");
        for (int g = 0; g < groups; g++) {
            ArrayNode names = decisionGroups.addObject().put("groupIndex", g).putArray("clusters");
            for (int c = 0; g == 0 && c < clusters; c++) {
                names.add("c" + c);
                list.addObject().put("name", "c" + c).put("status", "ToApply");
            }
        }
        return body;
    }

    // ---- implementation and backend ------------------------------------------------------------------------

    @Test
    void oneOfItems() {
        assertLimit("implementation", n -> CostlyRequests.explainRequest(n, 1, false), Limits.ONE_OF_ITEMS,
                "$.actionPolicy.interface.rules[0].oneOf");
    }

    @Test
    void inlineImplementations() {
        assertLimit("implementation", n -> CostlyRequests.explainRequest(1, n, false), Limits.IMPLEMENTATIONS,
                "$.implementations");
    }

    @Test
    void inlineTypeInstances() {
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 1, false);
            ArrayNode typeInstances = body.putArray("typeInstances");
            for (int i = 0; i < n; i++) {
                typeInstances.addObject().put("id", "ti-" + i).putObject("typeRef").put("path", "cap.type.t")
                        .put("revision", "0.1.0");
            }
            return body;
        }, Limits.TYPE_INSTANCES, "$.typeInstances");
    }

    @Test
    void workflowPoliciesAndRules() {
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 1, false);
            ArrayNode workflow = body.putArray("workflowPolicies");
            for (int i = 0; i < n; i++) {
                workflow.addObject().putObject("interface").putArray("rules");
            }
            return body;
        }, Limits.WORKFLOW_POLICIES, "$.workflowPolicies");
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 1, false);
            ArrayNode rules = (ArrayNode) body.get("actionPolicy").get("interface").get("rules");
            for (int i = 1; i < n; i++) {
                ObjectNode rule = rules.addObject();
                rule.putObject("interface").put("path", "cap.interface.r" + i);
                rule.putArray("oneOf");
            }
            return body;
        }, Limits.RULES_PER_POLICY, "$.actionPolicy.interface.rules");
    }

    @Test
    void typeRefsOfABackendDecision() {
        assertLimit("backend", n -> {
            ObjectNode body = Documents.jsonMapper().createObjectNode();
            ArrayNode typeRefs = body.putArray("typeRefs");
            for (int i = 0; i < n; i++) {
                typeRefs.addObject().put("path", "cap.type.t" + i).put("revision", "0.1.0");
            }
            return body;
        }, Limits.TYPE_REFS, "$.typeRefs");
    }

    @Test
    void revisionOfAnInlineImplementation() {
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 0, false);
            ((ArrayNode) body.get("implementations")).add(CostlyRequests.implementation("i", "1.0.0-" + "x".repeat(n - 6)));
            return body;
        }, Limits.REVISION_LENGTH, "$.implementations[0].revision");
    }

    @Test
    void revisionInAPolicyAndPathOfAnInterface() {
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 1, false);
            ((ObjectNode) body.get("actionPolicy").get("interface").get("rules").get(0).get("interface"))
                    .put("revision", "1.0." + "1".repeat(n - 4));
            return body;
        }, Limits.REVISION_LENGTH, "$.actionPolicy.interface.rules[0].interface.revision");
        assertLimit("implementation", n -> {
            ObjectNode body = CostlyRequests.explainRequest(1, 1, false);
            ((ObjectNode) body.get("interface")).put("path", "cap.interface." + "x".repeat(n - 14));
            return body;
        }, Limits.PATH_LENGTH, "$.interface.path");
    }

    /**
     * A decision and its explanation read the same Trial and Rejection facts, so explaining costs nothing the work
     * budget does not already count: an explanation is given at the Implementations limit, and a request over the
     * budget is refused whether it asks for one or not.
     */
    @Test
    void explainingCostsWhatDecidingCosts() {
        int items = 3; // and the global policy's 2: 3 × 5 × 1,000 + 5² units, under the budget; twice as many are over it
        JsonNode explained = DECISIONS.decide("implementation",
                CostlyRequests.bytes(CostlyRequests.explainRequest(items, Limits.IMPLEMENTATIONS, true)), "application/json");
        assertEquals("NO_MATCH", explained.path("outcome").asText());
        assertEquals(items, explained.path("explanation").size(), "the request's rule applies");
        assertEquals(Limits.IMPLEMENTATIONS, explained.path("explanation").get(0).path("tried").asInt());
        for (boolean explain : new boolean[] {true, false}) {
            DecisionException refused = refused("implementation",
                    CostlyRequests.explainRequest(2 * items, Limits.IMPLEMENTATIONS, explain));
            assertEquals("$", refused.problems().get(0).path());
            assertTrue(refused.getMessage().contains("over its work budget"), refused.getMessage());
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** {@code request(limit)} is decided; {@code request(limit + 1)} is refused at {@code path}, naming the limit. */
    private static void assertLimit(String target, java.util.function.IntFunction<ObjectNode> request, int limit, String path) {
        DECISIONS.decide(target, CostlyRequests.bytes(request.apply(limit)), "application/json");
        DecisionException refused = refused(target, request.apply(limit + 1));
        Problem problem = refused.problems().stream().filter(p -> p.path().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no problem at " + path + ": " + refused.problems()));
        assertTrue(problem.problem().contains(String.valueOf(limit)) || problem.problem().contains("%,d".formatted(limit)),
                problem.toString());
    }

    private static DecisionException refused(String target, ObjectNode body) {
        DecisionException refused = assertThrows(DecisionException.class,
                () -> DECISIONS.decide(target, CostlyRequests.bytes(body), "application/json"));
        // a policy in the request is refused as a policy (422), the rest of the request as a request (400)
        String path = refused.problems().get(0).path();
        boolean inPolicy = path.startsWith("$.actionPolicy.") || path.startsWith("$.workflowPolicies[");
        assertEquals(inPolicy ? DecisionException.Code.INVALID_POLICY : DecisionException.Code.INVALID_REQUEST,
                refused.code(), refused.getMessage());
        return refused;
    }
}
