package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DependenciesRulesTest {
    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);

    @Test
    void smoke() throws Exception {
        JsonNode body = Documents.jsonMapper().readTree("""
                {"policies": [{"name": "b", "namespace": "ns", "dependencies": [
                  {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy", "name": "a", "compliance": "Compliant"}],
                  "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy"}]}],
                 "observed": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy", "name": "ns.a",
                   "namespace": "local-cluster", "compliant": "NonCompliant"}]}
                """);
        DependenciesDecision d = DependenciesDecider.decide(body, ruleBase);
        System.out.println(Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValueAsString(d));
        assertEquals("PENDING", d.policies().get(0).templates().get(0).state());
    }
}
