package io.arbiter.analysis;

import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.model.Ref;
import io.arbiter.model.TypeInstance;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each check of the policy analysis fires on a policy that has the mistake, located, and stays silent on a clean
 * policy: the embedded catalog and TypeInstance store, the real rules.
 */
class PolicyLintTest {

    private static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();
    private static Snapshot embedded;

    /** A policy with no mistake for the embedded catalog: each rule decides, each item can win, every injection is taken. */
    static final String CLEAN = """
            interface:
              default:
                inject:
                  requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
              rules:
                - interface: {path: cap.interface.database.postgresql.install}
                  oneOf:
                    - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}
                      inject:
                        requiredTypeInstances: [{id: 517cf827-233c-4bf1-8fc9-48534424dd58}]
                        additionalParameters: [{name: additional-parameters, value: {region: eu-west-1}}]
                    - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}
                - interface: {path: cap.*}
                  oneOf:
                    - implementationConstraints: {}
            """;

    @BeforeAll
    static void load() {
        embedded = SnapshotLoader.load(Settings.embedded(), REGISTRY);
    }

    private static List<Finding> lint(String yaml) {
        return lint(yaml, PolicyLint.Role.GLOBAL, embedded);
    }

    private static List<Finding> lint(String yaml, PolicyLint.Role role, Snapshot snapshot) {
        return PolicyLint.lint(yaml.getBytes(StandardCharsets.UTF_8), "application/yaml", role, snapshot, REGISTRY,
                Duration.ofMinutes(5));
    }

    private static List<Finding> withCode(List<Finding> findings, String code) {
        return findings.stream().filter(finding -> finding.code().equals(code)).toList();
    }

    private static Finding only(List<Finding> findings, String code) {
        List<Finding> found = withCode(findings, code);
        assertEquals(1, found.size(), code + " in " + findings);
        return found.get(0);
    }

    @Test
    void aCleanPolicyHasNoFinding() {
        assertEquals(List.of(), lint(CLEAN));
    }

    // issue 28, first defect: `region: 42` on an item that does not win for the catalog passed lint
    @Test
    void parametersAreCheckedAgainstTheSchemaForEveryItemNotOnlyTheWinningOne() {
        String policy = CLEAN.replace("{region: eu-west-1}", "{region: 42}")
                .replace("    - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}\n",
                        "    - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}\n"
                                + "        - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}\n");

        List<Finding> findings = lint(policy);

        Finding refused = only(findings, "decision-refuses");
        assertEquals(Finding.Severity.ERROR, refused.severity());
        assertEquals("$.interface.rules[0].oneOf[1].inject.additionalParameters[0]", refused.path());
        assertEquals(12, refused.line(), refused.toString());
        assertTrue(refused.problem().contains("selects cap.implementation.aws.rds.postgresql.install:0.1.0: additional"
                + " parameter 'additional-parameters' does not match cap.type.aws.rds.postgresql.install-input:0.1.0:"
                + " $.region: integer found, string expected"), refused.problem());
        assertFalse(PolicyLint.valid(findings));
    }

    // issue 28, second defect: warnings came only once every error was fixed, and without a location
    @Test
    void errorsAndWarningsComeTogetherEachLocated() {
        List<Finding> findings = lint("""
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: not-in-the-store}]
                  rules:
                    - interface: {path: cap.interface.a, revision: "1"}
                      oneOf: [{implementationConstraints: {pth: x}}]
                """);

        Finding unknown = only(findings, "unknown-typeinstance");
        assertEquals(Finding.Severity.WARNING, unknown.severity());
        assertEquals("$.interface.default.inject.requiredTypeInstances[0].id", unknown.path());
        assertEquals(List.of(4, 32), List.of(unknown.line(), unknown.column()));
        assertEquals(2, withCode(findings, "schema").size(), findings.toString());
        assertTrue(findings.stream().allMatch(finding -> finding.line() != null), findings.toString());
    }

    // issue 28, fifth defect: an Action policy's path-only rule entirely shadowed by a global path:revision rule
    @Test
    void anActionRuleShadowedByAGlobalRuleOfHigherPrecedenceIsAWarning() {
        Snapshot global = embedded.withPolicy(PolicyParser.parse("""
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}
                      oneOf: [{implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}}]
                """.getBytes(StandardCharsets.UTF_8), "application/yaml"));
        String action = """
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}
                          inject:
                            requiredTypeInstances: [{id: 517cf827-233c-4bf1-8fc9-48534424dd58}]
                """;

        Finding shadowed = only(lint(action, PolicyLint.Role.ACTION, global), "shadowed-rule");
        List<Finding> asGlobal = lint(action, PolicyLint.Role.ACTION, embedded);

        assertEquals("$.interface.rules[0].interface", shadowed.path());
        assertEquals(3, shadowed.line());
        assertTrue(shadowed.problem().contains("the rule for cap.interface.database.postgresql.install:0.1.0 of the global"
                + " policy has a key of higher precedence"), shadowed.problem());
        assertEquals(List.of(), withCode(asGlobal, "shadowed-rule"), "the embedded global policy has no such rule");
    }

    @Test
    void aRuleShadowedByAHigherPrecedenceKeyOfTheSamePolicyIsAWarning() {
        String policy = CLEAN
                + "    - interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}\n"
                + "      oneOf: [{implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}}]\n";

        Finding shadowed = only(lint(policy), "shadowed-rule");

        assertEquals("$.interface.rules[0].interface", shadowed.path());
        assertTrue(shadowed.problem().contains("of this policy"), shadowed.problem());
    }

    @Test
    void anItemNoImplementationSatisfiesIsAWarningWithTheReasons() {
        Finding item = only(lint(CLEAN.replace("path: cap.implementation.bitnami.postgresql.install",
                "path: cap.implementation.gcp.cloudsql.postgresql.install")), "unsatisfiable-item");

        assertEquals("$.interface.rules[0].oneOf[1]", item.path());
        assertTrue(item.problem().contains("(alias gcp-sa) needs an injected TypeInstance"), item.problem());
    }

    @Test
    void anItemWhoseMatchesAllMatchAnEarlierItemCanNeverWin() {
        Finding item = only(lint(CLEAN.replace("path: cap.implementation.aws.rds.postgresql.install}",
                "}")), "unreachable-item");

        assertEquals("$.interface.rules[0].oneOf[1]", item.path());
        assertTrue(item.problem().contains("by cap.implementation.bitnami.postgresql.install:0.1.0"), item.problem());
    }

    @Test
    void aRuleForAnInterfaceNotInTheCatalogIsAWarning() {
        Finding unknown = only(lint(CLEAN.replace("{path: cap.interface.database.postgresql.install}",
                "{path: cap.interface.not.in.the.catalog}")), "unknown-interface");

        assertEquals("$.interface.rules[0].interface", unknown.path());
    }

    @Test
    void aPatternKeyOtherThanCapStarNamesNoInterface() {
        // the rule-key rules say so: no kind of key names an Interface by cap.interface.* (policy-syntax 2)
        Finding never = only(lint(CLEAN.replace("{path: cap.*}", "{path: cap.interface.*}")), "unknown-interface");

        assertEquals("$.interface.rules[1].interface", never.path());
        assertTrue(never.problem().contains("named by cap.interface.* under any kind of rule key"), never.problem());
    }

    @Test
    void anInjectionTheSelectedImplementationDoesNotRequireIsAWarning() {
        Finding unused = only(lint(CLEAN.replace("    - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}\n",
                "    - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}\n"
                        + "          inject: {requiredTypeInstances: [{id: 9038dcdc-e959-41c4-a690-d8ebf929ac0c}]}\n")),
                "unused-injection");

        assertEquals("$.interface.rules[0].oneOf[1].inject.requiredTypeInstances[0]", unused.path());
        assertTrue(unused.problem().contains("does not require cap.type.gcp.auth.service-account:0.1.0"), unused.problem());
    }

    @Test
    void anInjectionForARequirementWithoutAliasIsAWarning() {
        List<TypeInstance> store = new ArrayList<>(Fixtures.embeddedStore().all());
        store.add(new TypeInstance("k8s-cluster", new Ref("cap.core.type.platform.kubernetes", "0.1.0"), "a cluster"));
        Snapshot withCluster = new Snapshot(embedded.policy(), embedded.ruleBases(), embedded.catalog(),
                new TypeInstanceStore(store), embedded.platformTypeInstances(), embedded.policyOrder());

        Finding unaliased = only(lint(CLEAN.replace("{path: cap.*}", "{path: cap.interface.productivity.mattermost.install}")
                .replace("    - implementationConstraints: {}\n", "    - implementationConstraints: {}\n"
                        + "          inject: {requiredTypeInstances: [{id: k8s-cluster}]}\n"),
                PolicyLint.Role.GLOBAL, withCluster), "injection-without-alias");

        assertEquals("$.interface.rules[1].oneOf[0].inject.requiredTypeInstances[0]", unaliased.path());
        assertTrue(unaliased.problem().contains("requires cap.core.type.platform.kubernetes:0.1.0 without an alias"),
                unaliased.problem());
    }

    @Test
    void aWorkflowItemAHigherPriorityPolicyAlwaysBeatsIsAWarning() {
        Snapshot global = embedded.withPolicy(PolicyParser.parse(CLEAN.getBytes(StandardCharsets.UTF_8), "application/yaml"));
        String workflow = """
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints: {requires: [{path: cap.type.helm.release.storage}]}
                """;

        Finding item = only(lint(workflow, PolicyLint.Role.WORKFLOW, global), "shadowed-item");

        assertEquals("$.interface.rules[0].oneOf[0]", item.path());
        assertTrue(item.problem().contains("the global policy's interface.rules[0].oneOf[0]"), item.problem());
    }

    @Test
    void theSeedPoliciesLintAsTheySay() throws Exception {
        List<Finding> findings = lint(Files.readString(Fixtures.EMBEDDED.resolve("policy.yaml")));

        assertTrue(PolicyLint.valid(findings), findings.toString());
        assertEquals(List.of("unreachable-item"), findings.stream().map(Finding::code).toList(),
                "for the embedded catalog every Implementation that matches at all runs on Kubernetes: " + findings);
    }

    @Test
    void aSyntaxErrorIsOneLocatedError() {
        List<Finding> findings = lint("interface: [\n");

        assertEquals(1, findings.size(), findings.toString());
        assertEquals("syntax", findings.get(0).code());
        assertTrue(findings.get(0).line() != null, findings.toString());
    }

    private static final String BACKENDS = """
            typeInstance:
              rules:
                - typeRef: {path: cap.type.helm.*}
                  backend: {id: c268d3f5-8834-434b-bea2-b677793611c5}
                - typeRef: {path: cap.type.helm.release.storage}
                  backend: {id: c268d3f5-8834-434b-bea2-b677793611c5}
            """;

    @Test
    void aBackendRuleAMoreSpecificRuleAlwaysBeatsIsShadowed() {
        assertEquals(List.of(), lint(BACKENDS), "the pattern still decides cap.type.helm.template.storage");

        Finding shadowed = only(lint(BACKENDS + """
                    - typeRef: {path: cap.type.helm.template.storage}
                      backend: {id: c268d3f5-8834-434b-bea2-b677793611c5}
                """), "shadowed-backend-rule");

        assertEquals("$.typeInstance.rules[0].typeRef", shadowed.path());
        assertEquals(3, shadowed.line());
        assertTrue(shadowed.problem().contains("cap.type.helm.release.storage:0.1.0 by the rule for cap.type.helm.release.storage"),
                shadowed.problem());
    }

    @Test
    void aBackendRuleForNoKnownTypeIsAWarning() {
        Finding unknown = only(lint(BACKENDS.replace("cap.type.helm.*", "cap.type.nothing.*")), "unknown-type");

        assertEquals("$.typeInstance.rules[0].typeRef", unknown.path());
    }
}
