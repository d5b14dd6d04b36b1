package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.dependencies.DependenciesDecision.TemplateResult;
import io.arbiter.document.Documents;
import io.arbiter.document.Problem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What Java does around the rules of a dependency decision: looking observed objects up, and rendering. */
class DependenciesDecisionTest {

    private static final CompiledRuleBase RULES = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);

    private static DependenciesDecision decide(String json) throws IOException {
        return DependenciesDecider.decide(Documents.jsonMapper().readTree(json), RULES);
    }

    private static String configMap(String name) {
        return "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"name\": \"" + name + "\", \"namespace\": \"default\", "
                + "\"compliance\": \"Compliant\"}";
    }

    @Test
    void unmetDependenciesAreListedInRequestOrderPolicyDependenciesFirst() throws IOException {
        List<String> extras = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            extras.add(configMap("extra-" + i));
        }
        String observed = "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"name\": \"extra-%d\", \"namespace\": \"default\", "
                + "\"compliant\": \"Compliant\"}";
        List<String> present = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            if (i != 2 && i != 10 && i != 11) {
                present.add(observed.formatted(i));
            }
        }
        DependenciesDecision decision = decide("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s],
                  "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [%s]}]}],
                 "observed": [%s]}""".formatted(configMap("zz-policy-level"), String.join(", ", extras),
                String.join(", ", present)));

        TemplateResult template = decision.policies().get(0).templates().get(0);
        assertEquals(List.of("zz-policy-level", "extra-2", "extra-10", "extra-11"),
                template.unmet().stream().map(unmet -> unmet.dependency().name()).toList());
        assertEquals("Dependencies were not satisfied: 4 are still pending "
                + "(ConfigMap extra-10, ConfigMap extra-11, ConfigMap extra-2, ConfigMap zz-policy-level)", template.message());
    }

    @Test
    void aPolicySetDependencysMembersAreListedInTheSetsOrder() throws IOException {
        DependenciesDecision decision = decide("""
                {"policySets": [{"name": "s", "namespace": "ns", "policies": ["zeta", "alpha"]}],
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy",
                   "extraDependencies": [{"apiVersion": "policy.open-cluster-management.io/v1beta1", "kind": "PolicySet",
                                          "name": "s", "compliance": "Compliant"}]}]}]}""");

        assertEquals(List.of("ns.zeta", "ns.alpha"), decision.policies().get(0).templates().get(0).unmet().stream()
                .map(unmet -> unmet.dependency().name()).toList());
    }

    @Test
    void anObjectObservedTwiceIsRejectedAtEachLaterEntry() throws IOException {
        JsonNode body = Documents.jsonMapper().readTree("""
                {"clusterNamespace": "managed",
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy"}]}],
                 "observed": [
                   {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy", "name": "t", "namespace": "managed"},
                   {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "default"},
                   {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy", "name": "t", "namespace": "managed"},
                   {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "other"},
                   {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy", "name": "t", "namespace": "ns"},
                   {"apiVersion": "templates.gatekeeper.sh/v1", "kind": "ConstraintTemplate", "name": "k", "namespace": "a"},
                   {"apiVersion": "templates.gatekeeper.sh/v1", "kind": "ConstraintTemplate", "name": "k", "namespace": "b"}]}""");

        DecisionException error = assertThrows(DecisionException.class, () -> DependenciesDecider.decide(body, RULES));

        assertEquals(DecisionException.Code.INVALID_REQUEST, error.code());
        // observed[4] stays where it was observed (ns), so it is another object than observed[0]; a cluster-scoped
        // ConstraintTemplate is one object whatever namespace it is observed with
        assertEquals(List.of(Problem.at("$.observed[2]",
                        "ConfigurationPolicy managed/t is listed already, as observed[0]: list each object once"),
                Problem.at("$.observed[6]", "ConstraintTemplate k is listed already, as observed[5]: list each object once")),
                error.problems());
    }

    @Test
    void aKindListedTwiceInApiResourcesIsRejectedAtTheLaterEntry() throws IOException {
        JsonNode body = Documents.jsonMapper().readTree("""
                {"apiResources": [{"apiVersion": "v1", "kind": "ConfigMap", "namespaced": true},
                                  {"apiVersion": "v1", "kind": "Secret", "namespaced": true},
                                  {"apiVersion": "v1", "kind": "ConfigMap", "namespaced": false}],
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy"}]}]}""");

        DecisionException error = assertThrows(DecisionException.class, () -> DependenciesDecider.decide(body, RULES));

        assertEquals(DecisionException.Code.INVALID_REQUEST, error.code());
        assertEquals(List.of(Problem.at("$.apiResources[2]", "ConfigMap of v1 is listed already: list each kind once")),
                error.problems());
    }
}
