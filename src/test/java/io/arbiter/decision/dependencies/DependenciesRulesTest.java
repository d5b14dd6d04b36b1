package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.dependencies.DependencyFacts.State;
import io.arbiter.decision.dependencies.DependencyFacts.TemplateState;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of rules/dependencies/ and the tables of decision-tables/dependencies/ (ocm-dependencies.md sections 3
 * to 9): each rule fires on its case, its neighbours do not.
 */
class DependenciesRulesTest {

    // 10-gating.drl
    static final String SKIPPED = "A later policy dependency on the same object with another compliance is skipped";
    static final String POLICY_MERGED = "A later policy dependency equal to an earlier one merges into it";
    static final String NO_TEMPLATES = "A policy without templates wants nothing";
    static final String EXTRA_MERGED = "A later extra dependency equal to an earlier one of its template merges into it";
    static final String EXTRA_INTO_POLICY = "An extra dependency the policy already wants in the same compliance merges into the policy's";
    static final String CONFLICT = "An extra dependency wanting an object an earlier entry wants in another compliance conflicts";
    static final String FIRST_CONFLICT = "The first conflicting extra dependency names the template error";
    static final String REPEATED_NAMES = "Templates of a policy sharing a name are template errors";
    static final String UNSERVED = "A dependency on a kind the cluster does not serve is unmet";
    static final String CT_ABSENT_MET = "Absent ConstraintTemplate not wanted Compliant is met";
    static final String ABSENT = "Absent dependency object is unmet";
    static final String CT_MET = "Existing ConstraintTemplate counts as Compliant: met when wanted Compliant";
    static final String CT_UNMET = "Existing ConstraintTemplate counts as Compliant: unmet when wanted otherwise";
    static final String C_NO_COUNT = "Gatekeeper constraint without totalViolations is unmet";
    static final String C_MET = "Gatekeeper constraint whose violations agree with the wanted compliance is met";
    static final String C_UNMET = "Gatekeeper constraint whose violations disagree with the wanted compliance is unmet";
    static final String NO_STATUS = "Dependency object without a compliance is unmet";
    static final String EXACT = "Dependency object with exactly the wanted compliance is met";
    static final String MISMATCH = "Dependency object with another compliance is unmet";
    static final String POLICY_UNMET = "An unmet policy dependency is unmet for every template of the policy";
    static final String ERROR = "A template with conflicting compliance states is a template error";
    static final String NAMES_ERROR = "A template of a policy with repeated template names is a template error";
    static final String PENDING = "A template with an unmet dependency is pending";
    static final String IGNORED = "A pending template with ignorePending reports Compliant";
    static final String ACTIVE = "A template with every dependency met is active and reports its object's compliance";
    static final String ACTIVE_NO_STATE = "A template with every dependency met and no object yet is active without a state";
    static final String REPEATED_NAMED = "A template of a policy with repeated template names is reported under the first repeated name";
    static final String REPEATED_NONE = "Repeated template names leave every object of the policy as it is";
    static final String NAMED = "A template with conflicting compliance states is reported under its position";
    static final String APPLY = "An active template is applied";
    static final String DELETE = "A gated template that is applied is deleted";
    static final String NONE = "A gated template that is not applied stays absent";
    static final String WAITS = "A pending template waits on its unmet dependencies";
    // policy-compliance.drl.csv
    static final String ROW_NON_COMPLIANT = "Any template NonCompliant";
    static final String ROW_PENDING = "Else any template Pending";
    static final String ROW_COMPLIANT = "Else every template Compliant";
    // policyset-compliance.drl.csv
    static final String SET_NON_COMPLIANT = "Any member NonCompliant";
    static final String SET_PENDING = "Else any member Pending";
    static final String SET_COMPLIANT = "Else every member Compliant";
    // 20-reporting.drl
    static final String MEMBER = "A set member reports the compliance of its policy";
    static final String UNKNOWN = "A set member without a compliance is unknown";
    static final String EDGE = "A dependency on a request policy is an edge";
    static final String COMPONENTS = "Policies that reach each other along dependency edges are strongly connected";
    static final String CYCLE = "Strongly connected policies form a cycle";
    static final String SELF_CYCLE = "A policy that depends on itself is a cycle";
    static final String WAITED_ON = "A request policy that a pending template waits on is waited on";
    static final String WAITS_THROUGH = "A waited-on policy waits on what its pending templates wait on";

    static final List<String> COMBINING_RULES = List.of(SKIPPED, POLICY_MERGED, NO_TEMPLATES, EXTRA_MERGED, EXTRA_INTO_POLICY);
    static final List<String> JUDGE_RULES = List.of(UNSERVED, CT_ABSENT_MET, ABSENT, CT_MET, CT_UNMET, C_NO_COUNT, C_MET, C_UNMET,
            NO_STATUS, EXACT, MISMATCH);
    static final List<String> STATE_RULES = List.of(NAMES_ERROR, ERROR, PENDING, IGNORED, ACTIVE, ACTIVE_NO_STATE);
    static final List<String> POLICY_ROWS = List.of(ROW_NON_COMPLIANT, ROW_PENDING, ROW_COMPLIANT);

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);

    private CompiledRuleBase.Run<DependenciesDecider.Result> run(String json) {
        try {
            JsonNode body = Documents.jsonMapper().readTree(json);
            return ruleBase.run(DependenciesDecider.facts(body), DependenciesDecider.PHASES, DependenciesDecider::read);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One policy {@code ns.p} with one template {@code t} (extra dependency {@code dep}) and the observed objects. */
    private CompiledRuleBase.Run<DependenciesDecider.Result> oneTemplate(String dep, String observed) {
        return run("""
                {"policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                  {"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [%s]}]}],
                 "observed": [%s]}""".formatted(dep, observed));
    }

    private static String dep(String apiVersion, String kind, String name, String compliance) {
        return "{\"apiVersion\": \"%s\", \"kind\": \"%s\", \"name\": \"%s\", \"compliance\": \"%s\"}"
                .formatted(apiVersion, kind, name, compliance);
    }

    private static String obj(String apiVersion, String kind, String name, String extra) {
        return "{\"apiVersion\": \"%s\", \"kind\": \"%s\", \"name\": \"%s\"%s}".formatted(apiVersion, kind, name, extra);
    }

    private static final String CM = "v1";
    private static final String CT = "templates.gatekeeper.sh/v1";
    private static final String CONSTRAINT = "constraints.gatekeeper.sh/v1beta1";

    /** Exactly {@code rule} of the judging rules fired (once), and the others not. */
    private static void assertOnlyJudge(List<FiredRule> fired, String rule) {
        assertFiredTimes(fired, rule, 1);
        JUDGE_RULES.stream().filter(r -> !r.equals(rule)).forEach(r -> assertNotFired(fired, r));
    }

    private static void assertOnlyState(List<FiredRule> fired, String rule) {
        assertFiredTimes(fired, rule, 1);
        STATE_RULES.stream().filter(r -> !r.equals(rule)).forEach(r -> assertNotFired(fired, r));
    }

    private static TemplateState onlyState(DependenciesDecider.Result result) {
        assertEquals(1, result.states().size(), () -> "one template state: " + result.states());
        return result.states().get(0);
    }

    // ---- judging one dependency (section 3) ---------------------------------------------------------

    @Test
    void exactComplianceIsMet() {
        var run = oneTemplate(dep(CM, "ConfigMap", "c", "Compliant"), obj(CM, "ConfigMap", "c", ", \"compliant\": \"Compliant\""));
        assertOnlyJudge(run.firedRules(), EXACT);
        COMBINING_RULES.forEach(rule -> assertNotFired(run.firedRules(), rule)); // one entry: nothing to combine
        assertOnlyState(run.firedRules(), ACTIVE_NO_STATE);
        assertFired(run.firedRules(), APPLY);
        assertFiredBefore(run.firedRules(), EXACT, APPLY);
    }

    @Test
    void anotherComplianceIsAMismatch() {
        var run = oneTemplate(dep(CM, "ConfigMap", "c", "Compliant"), obj(CM, "ConfigMap", "c", ", \"compliant\": \"compliant\""));
        assertOnlyJudge(run.firedRules(), MISMATCH);
        assertEquals("Compliance mismatch on the dependency object", run.result().unmet().get(0).reason());
        assertOnlyState(run.firedRules(), PENDING);
    }

    @Test
    void missingStatusIsUnmet() {
        var run = oneTemplate(dep(CM, "ConfigMap", "c", "Compliant"), obj(CM, "ConfigMap", "c", ""));
        assertOnlyJudge(run.firedRules(), NO_STATUS);
        assertEquals("Failed to find complianceState on the dependency object", run.result().unmet().get(0).reason());
    }

    @Test
    void missingObjectIsUnmet() {
        var run = oneTemplate(dep(CM, "ConfigMap", "c", "Compliant"), "");
        assertOnlyJudge(run.firedRules(), ABSENT);
        assertEquals("Dependency object not found", run.result().unmet().get(0).reason());
    }

    @Test
    void absentConstraintTemplateNotWantedCompliantIsMet() {
        var run = oneTemplate(dep(CT, "ConstraintTemplate", "ct", "NonCompliant"), "");
        assertOnlyJudge(run.firedRules(), CT_ABSENT_MET);
        assertOnlyState(run.firedRules(), ACTIVE_NO_STATE);
    }

    @Test
    void absentConstraintTemplateWantedCompliantIsNotFound() {
        var run = oneTemplate(dep(CT, "ConstraintTemplate", "ct", "Compliant"), "");
        assertOnlyJudge(run.firedRules(), ABSENT);
    }

    @Test
    void existingConstraintTemplateIsCompliant() {
        assertOnlyJudge(oneTemplate(dep(CT, "ConstraintTemplate", "ct", "Compliant"),
                obj(CT, "ConstraintTemplate", "ct", "")).firedRules(), CT_MET);
        assertOnlyJudge(oneTemplate(dep(CT, "ConstraintTemplate", "ct", "Pending"),
                obj(CT, "ConstraintTemplate", "ct", ", \"compliant\": \"Pending\"")).firedRules(), CT_UNMET);
    }

    @Test
    void constraintIsCompliantIffNoViolations() {
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 0")).firedRules(), C_MET);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "NonCompliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 2")).firedRules(), C_MET);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 2")).firedRules(), C_UNMET);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"compliant\": \"Compliant\"")).firedRules(), C_NO_COUNT);
        // issue 45, NestedInt64 (template_sync.go L1384-1391): only an int64 is a count; 0.0 decodes as a float there
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 0.0")).firedRules(), C_NO_COUNT);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": \"0\"")).firedRules(), C_NO_COUNT);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 9223372036854775808")).firedRules(), C_NO_COUNT);
        // (violations == 0) == (desired == "Compliant"): -1 is violations
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "NonCompliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": -1")).firedRules(), C_MET);
    }

    @Test
    void violationsAreCountedIn64Bits() {
        // 2^32 read as an int is 0: the constraint looked violation-free
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "Compliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 4294967296")).firedRules(), C_UNMET);
        assertOnlyJudge(oneTemplate(dep(CONSTRAINT, "K8sRequiredLabels", "c", "NonCompliant"),
                obj(CONSTRAINT, "K8sRequiredLabels", "c", ", \"totalViolations\": 9223372036854775807")).firedRules(), C_MET);
    }

    // ---- combining (section 4) -------------------------------------------------------------------------

    @Test
    void policyDependenciesApplyToEveryTemplateAndTheFirstWins() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s, %s, %s],
                  "policyTemplates": [{"name": "t1", "kind": "ConfigurationPolicy"}, {"name": "t2", "kind": "ConfigurationPolicy"}]}],
                 "observed": [%s]}""".formatted(dep(CM, "ConfigMap", "c", "Compliant"), dep(CM, "ConfigMap", "c", "Pending"),
                dep(CM, "ConfigMap", "c", "Compliant"), obj(CM, "ConfigMap", "c", ", \"compliant\": \"Compliant\"")));
        assertFiredTimes(run.firedRules(), SKIPPED, 1); // the Pending entry
        assertFiredTimes(run.firedRules(), POLICY_MERGED, 1); // the second Compliant entry
        assertNotFired(run.firedRules(), NO_TEMPLATES);
        assertNotFired(run.firedRules(), CONFLICT);
        assertFiredTimes(run.firedRules(), EXACT, 1); // judged once for the policy
        assertNotFired(run.firedRules(), POLICY_UNMET);
        assertFiredTimes(run.firedRules(), ACTIVE_NO_STATE, 2);
    }

    @Test
    void anUnmetPolicyDependencyIsUnmetForEveryTemplate() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s],
                  "policyTemplates": [{"name": "t1", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s]},
                                      {"name": "t2", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s]}]}],
                 "observed": [%s]}""".formatted(dep(CM, "ConfigMap", "missing", "Compliant"),
                dep(CM, "ConfigMap", "missing", "Compliant"), dep(CM, "ConfigMap", "ok", "Compliant"),
                dep(CM, "ConfigMap", "ok", "Compliant"), dep(CM, "ConfigMap", "ok", "Compliant"),
                obj(CM, "ConfigMap", "ok", ", \"compliant\": \"Compliant\"")));
        // t1's copy of the policy dependency merges into it; t2's repeated entry merges into its first one
        assertFiredTimes(run.firedRules(), EXTRA_INTO_POLICY, 1);
        assertFiredTimes(run.firedRules(), EXTRA_MERGED, 1);
        assertNotFired(run.firedRules(), POLICY_MERGED);
        assertFiredTimes(run.firedRules(), ABSENT, 1); // judged once for the policy
        assertFiredTimes(run.firedRules(), EXACT, 2);
        assertFiredTimes(run.firedRules(), POLICY_UNMET, 2);
        assertFiredBefore(run.firedRules(), ABSENT, POLICY_UNMET);
        assertFiredBefore(run.firedRules(), POLICY_UNMET, PENDING);
        assertFiredTimes(run.firedRules(), PENDING, 2);
        assertNotFired(run.firedRules(), CONFLICT);
        var unmet = run.result().unmet();
        assertEquals(2, unmet.size(), () -> "unmet: " + unmet);
        assertEquals(List.of(0, 1), unmet.stream().map(u -> u.template().index()).sorted().toList());
        unmet.forEach(u -> assertEquals("policies[0].dependencies[0]", u.wanted().location()));
        run.result().states().forEach(state -> assertEquals(
                "Dependencies were not satisfied: 1 is still pending (ConfigMap missing)", state.message()));
    }

    @Test
    void aPolicyWithoutTemplatesWantsNothing() {
        String policyDep = "{\"apiVersion\": \"policy.open-cluster-management.io/v1\", \"kind\": \"Policy\", \"name\": \"%s\", \"compliance\": \"Compliant\"}";
        var run = run("""
                {"policies": [
                  {"name": "a", "namespace": "ns", "dependencies": [%s]},
                  {"name": "b", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tb", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(policyDep.formatted("b"), policyDep.formatted("a")));
        assertFiredTimes(run.firedRules(), NO_TEMPLATES, 1); // a's dependency on b
        assertFiredTimes(run.firedRules(), ABSENT, 1); // b's dependency on a, judged once
        assertFiredTimes(run.firedRules(), POLICY_UNMET, 1);
        assertFiredTimes(run.firedRules(), EDGE, 1); // b -> a only: a has no template to gate
        assertNotFired(run.firedRules(), CYCLE);
    }

    @Test
    void extraDependencyInAnotherComplianceIsATemplateError() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s],
                  "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy", "applied": true, "extraDependencies": [%s]}]}]}"""
                .formatted(dep(CM, "ConfigMap", "c", "Compliant"), dep(CM, "ConfigMap", "c", "NonCompliant")));
        assertFiredTimes(run.firedRules(), CONFLICT, 1);
        assertOnlyState(run.firedRules(), ERROR);
        TemplateState state = onlyState(run.result());
        assertEquals(State.TEMPLATE_ERROR, state.state());
        assertEquals("NonCompliant", state.compliant());
        assertTrue(state.message().contains("conflicting compliance states"), state.message());
        assertFired(run.firedRules(), DELETE);
        assertFired(run.firedRules(), ROW_NON_COMPLIANT);
        assertFiredTimes(run.firedRules(), NAMED, 1);
        assertEquals("template-0", run.result().names().get(0).name());
    }

    @Test
    void aTemplateErrorIsReportedUnderItsPositionAndOnlyIt() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                  {"name": "ok", "kind": "ConfigurationPolicy", "extraDependencies": [%s]},
                  {"name": "pending", "kind": "ConfigurationPolicy", "extraDependencies": [%s]},
                  {"name": "broken", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s]}]}],
                 "observed": [%s]}""".formatted(dep(CM, "ConfigMap", "c", "Compliant"), dep(CM, "ConfigMap", "missing", "Compliant"),
                dep(CM, "ConfigMap", "c", "Compliant"), dep(CM, "ConfigMap", "c", "Pending"),
                obj(CM, "ConfigMap", "c", ", \"compliant\": \"Compliant\"")));
        assertFiredTimes(run.firedRules(), ERROR, 1);
        assertNotFired(run.firedRules(), EXTRA_MERGED); // same object, another compliance: a conflict, not a merge
        assertFiredTimes(run.firedRules(), NAMED, 1);
        assertFiredBefore(run.firedRules(), ERROR, NAMED);
        assertEquals(1, run.result().names().size(), () -> "reported names: " + run.result().names());
        assertEquals(2, run.result().names().get(0).template().index());
        assertEquals("template-2", run.result().names().get(0).name());
    }

    @Test
    void theFirstConflictingExtraDependencyNamesTheTemplateError() {
        // entry 1 (b) conflicts with the policy's b before entry 2 (a) conflicts with entry 0
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s],
                  "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s, %s]}]}]}"""
                .formatted(dep(CM, "ConfigMap", "b", "Compliant"), dep(CM, "ConfigMap", "a", "Compliant"),
                        dep(CM, "ConfigMap", "b", "NonCompliant"), dep(CM, "ConfigMap", "a", "NonCompliant")));
        assertFiredTimes(run.firedRules(), CONFLICT, 2); // entries 1 and 2; entry 0 conflicts with nothing earlier
        assertFiredTimes(run.firedRules(), FIRST_CONFLICT, 1);
        assertOnlyState(run.firedRules(), ERROR);
        assertEquals("template-error; Failed to decode policy template with err: dependency on b has conflicting "
                + "compliance states", onlyState(run.result()).message());
    }

    @Test
    void repeatedTemplateNamesMakeEveryTemplateOfThePolicyATemplateError() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s], "policyTemplates": [
                   {"name": "a", "kind": "ConfigurationPolicy", "applied": true},
                   {"name": "b", "kind": "ConfigurationPolicy", "extraDependencies": [%s]},
                   {"name": "a", "kind": "CertificatePolicy"}]},
                  {"name": "q", "namespace": "ns", "policyTemplates": [{"name": "a", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(dep(CM, "ConfigMap", "missing", "Compliant"), dep(CM, "ConfigMap", "c", "NonCompliant")));
        assertFiredTimes(run.firedRules(), REPEATED_NAMES, 1); // once for the policy, not per pair
        assertFiredTimes(run.firedRules(), NAMES_ERROR, 3);
        assertNotFired(run.firedRules(), PENDING); // beats the unmet dependency
        assertFiredTimes(run.firedRules(), ACTIVE_NO_STATE, 1); // q's template: names are unique per policy
        assertNotFired(run.firedRules(), NAMED);
        assertFiredTimes(run.firedRules(), REPEATED_NAMED, 3);
        // template_sync.go L177-187: the reference returns before any create or delete
        assertNotFired(run.firedRules(), DELETE);
        assertNotFired(run.firedRules(), NONE);
        assertFiredTimes(run.firedRules(), REPEATED_NONE, 3);
        assertFiredTimes(run.firedRules(), APPLY, 1);
        run.result().names().forEach(name -> assertEquals("a", name.name()));
        run.result().states().stream().filter(s -> s.policyIndex() == 0).forEach(state -> {
            assertEquals(State.TEMPLATE_ERROR, state.state());
            assertEquals("NonCompliant", state.compliant());
            assertEquals("template-error; All policy-template names must be unique within a policy", state.message());
        });
    }

    @Test
    void aKindTheClusterDoesNotServeIsUnmetBeforeAnyOtherRow() {
        // Gatekeeper not installed: an absent ConstraintTemplate wanted NonCompliant would otherwise be met
        var run = run("""
                {"apiResources": [{"apiVersion": "v1", "kind": "ConfigMap", "namespaced": true},
                                  {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy",
                                   "namespaced": true}],
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                   {"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s]}]}],
                 "observed": [%s]}""".formatted(dep(CT, "ConstraintTemplate", "ct", "NonCompliant"),
                dep(CM, "Secret", "s", "Compliant"), obj(CM, "Secret", "s", ", \"compliant\": \"Compliant\"")));
        assertFiredTimes(run.firedRules(), UNSERVED, 2); // a Secret is not listed either, observed or not
        JUDGE_RULES.stream().filter(r -> !r.equals(UNSERVED)).forEach(r -> assertNotFired(run.firedRules(), r));
        assertEquals("Could not find an API mapping for the dependency", run.result().unmet().get(0).reason());
        assertEquals("Dependencies were not satisfied: 2 are still pending (ConstraintTemplate ct, Secret s)",
                onlyState(run.result()).message());
    }

    @Test
    void aTemplateOfAKindTheClusterDoesNotServeIsATemplateErrorBeforeItsDependencies() {
        // template_sync.go L365-390: the template's kind is mapped before its dependencies are judged
        var run = run("""
                {"apiResources": [{"apiVersion": "v1", "kind": "ConfigMap", "namespaced": true}],
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                   {"name": "t", "kind": "CertificatePolicy", "applied": true, "extraDependencies": [%s]}]}]}"""
                .formatted(dep(CM, "ConfigMap", "missing", "Compliant")));
        assertFiredTimes(run.firedRules(), "A template of a kind the cluster does not serve is a template error", 1);
        assertNotFired(run.firedRules(), PENDING);
        assertNotFired(run.firedRules(), DELETE);
        assertFiredTimes(run.firedRules(), NONE, 1);
        assertEquals(State.TEMPLATE_ERROR, onlyState(run.result()).state());
        assertTrue(run.result().names().isEmpty()); // reported under its own name
    }

    @Test
    void discoveryDecidesWhichKindsIgnoreNamespaces() {
        // listed cluster-scoped: namespaces ignored on both sides; listed namespaced, even a Gatekeeper kind: kept
        String request = """
                {"apiResources": [{"apiVersion": "example.com/v1", "kind": "Widget", "namespaced": false},
                                  {"apiVersion": "%s", "kind": "ConstraintTemplate", "namespaced": true},
                                  {"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy",
                                   "namespaced": true}],
                 "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                   {"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [
                     {"apiVersion": "example.com/v1", "kind": "Widget", "name": "w", "namespace": "x", "compliance": "Compliant"},
                     {"apiVersion": "%s", "kind": "ConstraintTemplate", "name": "ct", "namespace": "x", "compliance": "Compliant"}]}]}],
                 "observed": [{"apiVersion": "example.com/v1", "kind": "Widget", "name": "w", "namespace": "y", "compliant": "Compliant"},
                              {"apiVersion": "%s", "kind": "ConstraintTemplate", "name": "ct", "namespace": "y"}]}"""
                .formatted(CT, CT, CT);
        var run = run(request);
        assertFiredTimes(run.firedRules(), EXACT, 1);
        assertFiredTimes(run.firedRules(), ABSENT, 1); // the namespaced ConstraintTemplate is in y, wanted in x
        assertEquals("ConstraintTemplate", run.result().unmet().get(0).wanted().dependency().kind());
    }

    // ---- template state, message and action (sections 5, 6, 8) --------------------------------------------

    @Test
    void pendingMessageCountsOnlyUnmetSortedAndMergesOnlyOneObject() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "dependencies": [%s, %s],
                  "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy", "extraDependencies": [%s, %s]}]}],
                 "observed": [%s]}""".formatted(dep(CM, "Secret", "z", "Compliant"), dep(CM, "ConfigMap", "ok", "Compliant"),
                dep(CM, "Secret", "z", "Compliant"), dep(CM, "ConfigMap", "b", "Compliant"),
                obj(CM, "ConfigMap", "ok", ", \"compliant\": \"Compliant\"")));
        TemplateState state = onlyState(run.result());
        assertEquals("Dependencies were not satisfied: 2 are still pending (ConfigMap b, Secret z)", state.message());
        assertFiredTimes(run.firedRules(), EXTRA_INTO_POLICY, 1); // the template's Secret z is the policy's
        assertNotFired(run.firedRules(), EXTRA_MERGED);
        assertOnlyState(run.firedRules(), PENDING);
        assertFired(run.firedRules(), NONE);
        assertNotFired(run.firedRules(), DELETE);
        assertNotFired(run.firedRules(), APPLY);
    }

    @Test
    void pendingMessageKeepsRepeatedNames() {
        // two ConfigMaps c in two namespaces are two unmet dependencies, each named "ConfigMap c"
        var run = oneTemplate("""
                {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "a", "compliance": "Compliant"},
                {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "b", "compliance": "Compliant"}""", "");
        assertEquals("Dependencies were not satisfied: 2 are still pending (ConfigMap c, ConfigMap c)",
                onlyState(run.result()).message());
        assertEquals(2, run.result().unmet().size());
    }

    @Test
    void ignorePendingReportsCompliantButStaysGated() {
        var run = run("""
                {"policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                  {"name": "t", "kind": "ConfigurationPolicy", "ignorePending": true, "applied": true, "extraDependencies": [%s]}]}]}"""
                .formatted(dep(CM, "ConfigMap", "c", "Compliant")));
        TemplateState state = onlyState(run.result());
        assertEquals("Compliant", state.compliant());
        assertTrue(state.message().endsWith(" but ignorePending is true"), state.message());
        assertOnlyState(run.firedRules(), IGNORED);
        assertNotFired(run.firedRules(), NAMED); // a pending template keeps its own name
        assertFired(run.firedRules(), DELETE);
        assertFired(run.firedRules(), ROW_COMPLIANT);
    }

    @Test
    void activeTemplateReportsItsObservedObject() {
        var run = run("""
                {"clusterNamespace": "c1", "policies": [{"name": "p", "namespace": "ns", "policyTemplates": [
                  {"name": "t", "kind": "ConfigurationPolicy"}]}],
                 "observed": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "ConfigurationPolicy",
                   "name": "t", "namespace": "c1", "compliant": "NonCompliant"}]}""");
        assertOnlyState(run.firedRules(), ACTIVE);
        assertNotFired(run.firedRules(), NAMED);
        assertEquals("NonCompliant", onlyState(run.result()).compliant());
        assertFired(run.firedRules(), APPLY);
        assertFired(run.firedRules(), ROW_NON_COMPLIANT);
    }

    // ---- aggregation tables (section 7) --------------------------------------------------------------------

    private CompiledRuleBase.Run<DependenciesDecider.Result> templatesIn(String... compliances) {
        StringBuilder templates = new StringBuilder();
        StringBuilder observed = new StringBuilder();
        for (int i = 0; i < compliances.length; i++) {
            templates.append(i == 0 ? "" : ", ").append("{\"name\": \"t" + i + "\", \"kind\": \"ConfigurationPolicy\"}");
            if (compliances[i] != null) {
                observed.append(observed.isEmpty() ? "" : ", ").append(obj("policy.open-cluster-management.io/v1",
                        "ConfigurationPolicy", "t" + i, ", \"namespace\": \"local-cluster\", \"compliant\": \"" + compliances[i] + "\""));
            }
        }
        return run("{\"policies\": [{\"name\": \"p\", \"namespace\": \"ns\", \"policyTemplates\": [" + templates
                + "]}], \"policySets\": [{\"name\": \"s\", \"namespace\": \"ns\", \"policies\": [\"p\"]}], \"observed\": [" + observed + "]}");
    }

    private static void assertOnlyRow(List<FiredRule> fired, String row) {
        assertFiredTimes(fired, row, 1);
        POLICY_ROWS.stream().filter(r -> !r.equals(row)).forEach(r -> assertNotFired(fired, r));
    }

    @Test
    void nonCompliantBeatsPendingAndCompliant() {
        var run = templatesIn("Compliant", "Pending", "NonCompliant");
        assertOnlyRow(run.firedRules(), ROW_NON_COMPLIANT);
        assertEquals("NonCompliant", run.result().policyCompliances().get(0).compliant());
        assertFired(run.firedRules(), MEMBER);
        assertFired(run.firedRules(), SET_NON_COMPLIANT);
        assertNotFired(run.firedRules(), SET_PENDING);
    }

    @Test
    void pendingBeatsCompliant() {
        var run = templatesIn("Compliant", "Pending");
        assertOnlyRow(run.firedRules(), ROW_PENDING);
        assertFired(run.firedRules(), SET_PENDING);
        assertNotFired(run.firedRules(), SET_COMPLIANT);
    }

    @Test
    void compliantOnlyWhenEveryTemplateIs() {
        var run = templatesIn("Compliant", "Compliant");
        assertOnlyRow(run.firedRules(), ROW_COMPLIANT);
        assertFired(run.firedRules(), SET_COMPLIANT);
    }

    @Test
    void aTemplateWithoutStateLeavesThePolicyAndItsSetUnknown() {
        var run = templatesIn("Compliant", null);
        POLICY_ROWS.forEach(r -> assertNotFired(run.firedRules(), r));
        assertTrue(run.result().policyCompliances().isEmpty());
        assertFired(run.firedRules(), UNKNOWN);
        assertNotFired(run.firedRules(), MEMBER);
        assertNotFired(run.firedRules(), SET_COMPLIANT);
        assertTrue(run.result().setCompliances().isEmpty(), () -> "set compliance: " + run.result().setCompliances());
    }

    // ---- waitingOn and cycles -------------------------------------------------------------------------------

    @Test
    void cyclesAndWaitingChains() {
        String policyDep = "{\"apiVersion\": \"policy.open-cluster-management.io/v1\", \"kind\": \"Policy\", \"name\": \"%s\", \"compliance\": \"Compliant\"}";
        var run = run("""
                {"policies": [
                  {"name": "a", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "ta", "kind": "ConfigurationPolicy"}]},
                  {"name": "b", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tb", "kind": "ConfigurationPolicy"}]},
                  {"name": "c", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tc", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(policyDep.formatted("b"), policyDep.formatted("a"), policyDep.formatted("a")));
        assertFiredTimes(run.firedRules(), EDGE, 3);
        assertFiredTimes(run.firedRules(), CYCLE, 1);
        assertNotFired(run.firedRules(), SELF_CYCLE);
        assertEquals(List.of(List.of("ns.a", "ns.b")), DependenciesDecider.cycles(run.result()));
        assertFiredTimes(run.firedRules(), WAITS, 3);
        // a and b are waited on (c waits on a); each says once what it waits on
        assertFiredTimes(run.firedRules(), WAITED_ON, 2);
        assertFiredTimes(run.firedRules(), WAITS_THROUGH, 2);
        assertEquals(List.of(new DependenciesDecision.PendingPolicy("ns.a", List.of("Policy ns.b")),
                new DependenciesDecision.PendingPolicy("ns.b", List.of("Policy ns.a"))),
                DependenciesDecider.pendingPolicies(run.result()));
    }

    /**
     * A component's loop goes from its smallest policy to the smallest member not yet on it, and ends where the
     * policy it reached has no such member: a and b, b and a, a and c, c and a form one component, the loop a, b.
     */
    @Test
    void aCycleIsReportedAsItsLoopFromTheSmallestPolicy() {
        String policyDep = "{\"apiVersion\": \"policy.open-cluster-management.io/v1\", \"kind\": \"Policy\", \"name\": \"%s\", \"compliance\": \"Compliant\"}";
        var run = run("""
                {"policies": [
                  {"name": "c", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tc", "kind": "ConfigurationPolicy"}]},
                  {"name": "b", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tb", "kind": "ConfigurationPolicy"}]},
                  {"name": "a", "namespace": "ns", "dependencies": [%s, %s], "policyTemplates": [{"name": "ta", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(policyDep.formatted("a"), policyDep.formatted("a"), policyDep.formatted("c"), policyDep.formatted("b")));
        assertFiredTimes(run.firedRules(), COMPONENTS, 1);
        assertFiredTimes(run.firedRules(), CYCLE, 1);
        assertNotFired(run.firedRules(), SELF_CYCLE);
        assertEquals(List.of(List.of("ns.a", "ns.b")), DependenciesDecider.cycles(run.result()));
    }

    @Test
    void aPolicyThatDependsOnItselfIsACycle() {
        String policyDep = "{\"apiVersion\": \"policy.open-cluster-management.io/v1\", \"kind\": \"Policy\", \"name\": \"%s\", \"compliance\": \"Compliant\"}";
        var run = run("""
                {"policies": [
                  {"name": "a", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "ta", "kind": "ConfigurationPolicy"}]},
                  {"name": "b", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "tb", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(policyDep.formatted("a"), policyDep.formatted("a")));
        assertFiredTimes(run.firedRules(), COMPONENTS, 1);
        assertFiredTimes(run.firedRules(), SELF_CYCLE, 1);
        assertNotFired(run.firedRules(), CYCLE);
        assertEquals(List.of(List.of("ns.a")), DependenciesDecider.cycles(run.result()));
    }

    /** A chain's links are stated once each: per template, and once per policy something waits on. */
    @Test
    void aChainIsDescribedOncePerLink() {
        var decision = DependenciesDecider.decide(io.arbiter.testing.CostlyRequests.dependencyChain(50, false), ruleBase);
        for (var policy : decision.policies()) {
            assertEquals(1, policy.templates().get(0).waitingOn().size(), policy.name() + " lists its direct blocker only");
        }
        assertEquals(49, decision.pendingPolicies().size(), "p1 to p49 are waited on");
        assertEquals(new DependenciesDecision.PendingPolicy("ns.p1", List.of("Policy ns.p2")), decision.pendingPolicies().get(0));
        assertFiredTimes(decision.firedRules(), WAITS, 50);
        assertFiredTimes(decision.firedRules(), WAITS_THROUGH, 49);
        assertTrue(decision.cycles().isEmpty());
    }

    @Test
    void noCycleWithoutALoop() {
        String policyDep = "{\"apiVersion\": \"policy.open-cluster-management.io/v1\", \"kind\": \"Policy\", \"name\": \"%s\", \"compliance\": \"Compliant\"}";
        var run = run("""
                {"policies": [
                  {"name": "a", "namespace": "ns", "dependencies": [%s], "policyTemplates": [{"name": "ta", "kind": "ConfigurationPolicy"}]},
                  {"name": "b", "namespace": "ns", "policyTemplates": [{"name": "tb", "kind": "ConfigurationPolicy"}]}]}"""
                .formatted(policyDep.formatted("b")));
        assertFiredTimes(run.firedRules(), EDGE, 1);
        assertNotFired(run.firedRules(), CYCLE);
        assertNotFired(run.firedRules(), WAITS_THROUGH); // b is not pending
        assertTrue(DependenciesDecider.pendingPolicies(run.result()).isEmpty());
        assertFiredTimes(run.firedRules(), WAITS, 1);
    }
}
