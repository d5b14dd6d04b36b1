package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.RuleTestSupport;
import org.drools.base.definitions.rule.impl.RuleImpl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A large request is gated in partitions of policies, in parallel, then reported in one session
 * ({@link DependenciesDecider#runPartitioned}). It must be the same decision as one session over every fact: the same
 * results, the same firings (numbered 1..n, phase by phase), whatever the number of partitions.
 */
class DependenciesPartitionTest {

    private static CompiledRuleBase ruleBase;

    @BeforeAll
    static void build() {
        ruleBase = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);
    }

    static Stream<Arguments> scenarios() throws IOException {
        List<Arguments> scenarios = new ArrayList<>();
        try (Stream<Path> files = Files.list(Fixtures.SCENARIOS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                JsonNode scenario = Documents.parseYaml(Files.readAllBytes(file)).tree();
                if (scenario.path("target").asText().equals(DependenciesDecider.KIND)
                        && scenario.path("expect").path("status").asInt(200) == 200) {
                    scenarios.add(Arguments.of(file.getFileName().toString(), scenario.path("request")));
                }
            }
        }
        return scenarios.stream();
    }

    @Test
    void everyDependencyScenarioIsCompared() throws IOException {
        assertTrue(scenarios().count() >= 25, "the dependency scenarios of fixtures/scenarios/");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aScenarioDecidesTheSameInPartitions(String name, JsonNode request) {
        DependenciesDecision whole = DependenciesDecider.decide(request, ruleBase, 1);
        for (int partitions = 2; partitions <= 3; partitions++) {
            assertSameDecision(whole, DependenciesDecider.decide(request, ruleBase, partitions), name + " in " + partitions);
        }
    }

    /**
     * Policies whose dependencies, PolicySets, cycles and waiting chains cross every partition boundary (2 and 3
     * partitions of 300 policies split at 100, 150 and 200).
     */
    @Test
    void aLargeRequestWithLinksAcrossPartitionsDecidesTheSame() {
        JsonNode request = acrossPartitions(300);
        DependenciesDecision whole = DependenciesDecider.decide(request, ruleBase, 1);
        assertFalse(whole.cycles().isEmpty(), "the request has cycles across partitions");
        assertTrue(whole.pendingPolicies().size() > 1, "the request has waiting chains through other policies");
        assertTrue(whole.policySets().stream().anyMatch(s -> s.message() != null && s.message().contains("awaiting")),
                "a PolicySet with pending members");
        for (int partitions = 2; partitions <= 3; partitions++) {
            assertSameDecision(whole, DependenciesDecider.decide(request, ruleBase, partitions), "in " + partitions);
        }
    }

    @Test
    void partitionsHoldAtLeastTwoHundredPoliciesAndAreAtMostFour() {
        assertEquals(1, DependenciesDecider.partitions(0));
        assertEquals(1, DependenciesDecider.partitions(399));
        assertEquals(2, DependenciesDecider.partitions(400));
        assertEquals(2, DependenciesDecider.partitions(500));
        assertEquals(4, DependenciesDecider.partitions(800));
        assertEquals(4, DependenciesDecider.partitions(5_000));
    }

    private static void assertSameDecision(DependenciesDecision expected, DependenciesDecision actual, String what) {
        assertEquals(expected.policies(), actual.policies(), what + ": policies");
        assertEquals(expected.policySets(), actual.policySets(), what + ": policySets");
        assertEquals(expected.pendingPolicies(), actual.pendingPolicies(), what + ": pendingPolicies");
        assertEquals(expected.cycles(), actual.cycles(), what + ": cycles");
        assertEquals(gatingFirings(expected.firedRules()), gatingFirings(actual.firedRules()), what + ": the same gating firings");
        assertEquals(reportingRules(expected.firedRules()), reportingRules(actual.firedRules()),
                what + ": the same reporting rules, as often");
        for (int i = 0; i < actual.firedRules().size(); i++) {
            assertEquals(i + 1, actual.firedRules().get(i).order(), what + ": firings numbered in order");
        }
        int previousPhase = -1;
        for (FiredRule fired : actual.firedRules()) {
            int phase = phaseOf(fired);
            assertTrue(phase >= previousPhase, what + ": " + fired.rule() + " fired after a later phase's rule");
            previousPhase = phase;
        }
    }

    /** The gating firings with the facts they matched, sorted: each partition's session fires them as one session would. */
    private static List<String> gatingFirings(List<FiredRule> fired) {
        return fired.stream().filter(f -> phaseOf(f) < DependenciesDecider.GATING_PHASES.size())
                .map(f -> f.rule() + " " + f.facts()).sorted().toList();
    }

    /**
     * The reporting firings by rule, sorted, without their facts. The reporting session gets the gating conclusions in
     * another order than one session derived them in, and rules that guard on their own conclusion ({@code not
     * WaitingOn}, {@code not DependsOn}) fire once per conclusion for whichever match comes first: the same conclusions,
     * possibly recorded with another match that equally supports them. A list a rule collects ({@code accumulate})
     * likewise comes in insertion order.
     */
    private static List<String> reportingRules(List<FiredRule> fired) {
        return fired.stream().filter(f -> phaseOf(f) >= DependenciesDecider.GATING_PHASES.size())
                .map(FiredRule::rule).sorted().toList();
    }


    private static int phaseOf(FiredRule fired) {
        RuleImpl rule = (RuleImpl) ruleBase.kieBase().getRule(io.arbiter.testing.RuleTestSupport.packageOf(fired), io.arbiter.testing.RuleTestSupport.name(fired));
        int phase = DependenciesDecider.PHASES.indexOf(rule.getRuleFlowGroup());
        assertTrue(phase >= 0, fired.rule() + " is in a phase");
        return phase;
    }

    /**
     * Policy p depends on p-1 (a chain through every partition), every 7th policy's own object is Pending (so chains
     * of waiting), 99/100, 149/150 and 199/200/201 form cycles across the boundaries, templates carry extra
     * dependencies (some missing, some conflicting, some ignorePending), and two PolicySets have members in every
     * partition; the last policy depends on one of them.
     */
    static JsonNode acrossPartitions(int count) {
        ObjectNode body = Documents.jsonMapper().createObjectNode();
        body.put("clusterNamespace", "local-cluster");
        ArrayNode policies = body.putArray("policies");
        ArrayNode observed = body.putArray("observed");
        for (int p = 0; p < count; p++) {
            ObjectNode policy = policies.addObject().put("name", "p" + p).put("namespace", "ns");
            ArrayNode dependencies = policy.putArray("dependencies");
            dependencies.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                    .put("name", p == 0 ? "root" : "p" + (p - 1)).put("compliance", "Compliant");
            int back = switch (p) {
                case 99 -> 100;
                case 149 -> 150;
                case 199 -> 201;
                default -> -1;
            };
            if (back >= 0) {
                dependencies.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                        .put("name", "p" + back).put("compliance", "Compliant");
            }
            ArrayNode templates = policy.putArray("policyTemplates");
            for (int t = 0; t < 3; t++) {
                ObjectNode template = templates.addObject().put("name", "p" + p + "-t" + t)
                        .put("kind", "ConfigurationPolicy").put("applied", t != 1).put("ignorePending", p % 11 == 0 && t == 2);
                ArrayNode extras = template.putArray("extraDependencies");
                extras.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "cm-" + p + "-" + t)
                        .put("namespace", "default").put("compliance", "Compliant");
                if (p % 13 == 0 && t == 0) {
                    extras.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                            .put("name", p == 0 ? "root" : "p" + (p - 1)).put("compliance", "NonCompliant");
                }
                if (t == 1) {
                    extras.addObject().put("apiVersion", "constraints.gatekeeper.sh/v1beta1").put("kind", "K8sRequiredLabels")
                            .put("name", "c-" + (p % 20)).put("compliance", "Compliant");
                }
                if (p % 5 != 0 || t != 2) {
                    observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1")
                            .put("kind", "ConfigurationPolicy").put("name", "p" + p + "-t" + t)
                            .put("namespace", "local-cluster").put("compliant", t == 1 && p % 4 == 0 ? "NonCompliant" : "Compliant");
                }
                if ((p + t) % 3 != 0) {
                    observed.addObject().put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "cm-" + p + "-" + t)
                            .put("namespace", "default").put("compliant", "Compliant");
                }
            }
            if (p % 17 != 3) {
                observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                        .put("name", "ns.p" + p).put("namespace", "local-cluster").put("compliant", p % 7 == 0 ? "Pending" : "Compliant");
            }
        }
        observed.addObject().put("apiVersion", "policy.open-cluster-management.io/v1").put("kind", "Policy")
                .put("name", "ns.root").put("namespace", "local-cluster").put("compliant", "Compliant");
        for (int c = 0; c < 20; c++) {
            observed.addObject().put("apiVersion", "constraints.gatekeeper.sh/v1beta1").put("kind", "K8sRequiredLabels")
                    .put("name", "c-" + c).put("totalViolations", c % 10 == 0 ? 1 : 0);
        }
        ArrayNode sets = body.putArray("policySets");
        ArrayNode spread = sets.addObject().put("name", "spread").put("namespace", "ns").putArray("policies");
        for (int p = 7; p < count; p += 70) {
            spread.add("p" + p);
        }
        sets.addObject().put("name", "with-unknown").put("namespace", "ns").putArray("policies").add("p1").add("p250").add("ghost");
        ((ArrayNode) policies.get(count - 1).path("dependencies")).addObject().put("apiVersion", "policy.open-cluster-management.io/v1beta1")
                .put("kind", "PolicySet").put("name", "spread").put("compliance", "Compliant");
        return body;
    }
}
