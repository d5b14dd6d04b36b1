package io.arbiter.analysis;

import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dependency policies: their graph is linted by the dependencies decision (cycles, unknown targets). */
class DependencyLintTest {

    private static Decisions decisions;

    private static final String CHAIN = """
            policies:
              - name: a
                namespace: ns
                dependencies:
                  - {apiVersion: policy.open-cluster-management.io/v1, kind: Policy, name: b, compliance: Compliant}
                policyTemplates:
                  - {name: a-t, kind: ConfigurationPolicy}
              - name: b
                namespace: ns
                policyTemplates:
                  - {name: b-t, kind: ConfigurationPolicy}
            """;

    @BeforeAll
    static void load() {
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        decisions = new Decisions(registry, SnapshotLoader.load(Settings.embedded(), registry));
    }

    private static List<Finding> lint(String yaml) {
        return DependencyLint.lint(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml", decisions);
    }

    @Test
    void aChainOfKnownPoliciesHasNoFinding() {
        assertTrue(DependencyLint.isDependencyPolicies(CHAIN.getBytes(StandardCharsets.UTF_8), "application/yaml"));
        assertEquals(List.of(), lint(CHAIN));
    }

    @Test
    void aCycleIsAnErrorAtItsFirstPolicy() {
        List<Finding> findings = lint(CHAIN.replace("    namespace: ns\n    policyTemplates:\n      - {name: b-t",
                "    namespace: ns\n    dependencies:\n"
                        + "      - {apiVersion: policy.open-cluster-management.io/v1, kind: Policy, name: a, compliance: Compliant}\n"
                        + "    policyTemplates:\n      - {name: b-t"));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("dependency-cycle", findings.get(0).code());
        assertEquals("$.policies[0]", findings.get(0).path());
        assertEquals(2, findings.get(0).line());
        assertTrue(findings.get(0).problem().contains("ns.a -> ns.b -> ns.a"), findings.get(0).problem());
        assertFalse(PolicyLint.valid(findings));
    }

    @Test
    void aDependencyOnAPolicyTheDocumentDoesNotHoldIsAWarning() {
        List<Finding> findings = lint(CHAIN.replace("name: b, compliance", "name: elsewhere, compliance"));

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("unknown-dependency", findings.get(0).code());
        assertEquals("$.policies[0].policyTemplates[0]", findings.get(0).path());
        assertTrue(findings.get(0).problem().startsWith("Policy ns.elsewhere is not one of these policies"), findings.get(0).problem());
    }

    @Test
    void aWrongShapeIsASchemaErrorLocatedInTheFile() {
        List<Finding> findings = lint("policies:\n  - name: a\n    policyTemplates: 7\n");

        assertFalse(findings.isEmpty());
        assertTrue(findings.stream().allMatch(f -> f.code().equals("schema") && f.line() != null), findings.toString());
    }
}
