package io.arbiter.decision.implementation;

import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.ItemMatch;
import io.arbiter.decision.implementation.ImplementationFacts.OneOfItem;
import io.arbiter.decision.implementation.ImplementationFacts.Outcome;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.decision.implementation.ImplementationFacts.Rejection;
import io.arbiter.decision.implementation.ImplementationFacts.Verdict;
import io.arbiter.decision.implementation.ImplementationFacts.WinningItem;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.arbiter.engine.CompiledRuleBase.factsOf;
import static io.arbiter.decision.implementation.Facts.GCP_SA;
import static io.arbiter.decision.implementation.Facts.K8S;
import static io.arbiter.decision.implementation.Facts.POSTGRES;
import static io.arbiter.decision.implementation.Facts.anyItem;
import static io.arbiter.decision.implementation.Facts.available;
import static io.arbiter.decision.implementation.Facts.impl;
import static io.arbiter.decision.implementation.Facts.injected;
import static io.arbiter.decision.implementation.Facts.item;
import static io.arbiter.decision.implementation.Facts.rule;
import static io.arbiter.decision.implementation.Facts.withConstraints;
import static io.arbiter.decision.implementation.Facts.withRequirements;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertFiredTimes;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Matching, rejection and outcome rules (rules/implementation/20-matching.drl, 30-outcome.drl; policy-syntax section 3). */
class MatchingRulesTest {

    private static final String TRIAL = "Implementation of the Interface is tried for each oneOf item";
    private static final String ALIAS_SATISFIED = "Aliased requirement is satisfied by an injected TypeInstance";
    private static final String PATH_DIFFERS = "Implementation path differs from the constraint";
    private static final String LACKS_ATTRIBUTE = "Implementation lacks a constrained attribute";
    private static final String LACKS_TYPE = "Implementation does not require a constrained Type";
    private static final String ALIAS_MISSING = "Aliased allOf requirement has no injected TypeInstance";
    private static final String NO_INSTANCE = "allOf requirement has no TypeInstance in the system";
    private static final String ANY_OF = "anyOf requirement group has no satisfied item";
    private static final String ONE_OF = "oneOf requirement group does not have exactly one satisfied item";
    private static final String MATCHES = "Implementation matches a oneOf item when no reason rejects the trial";
    private static final String WINS = "First oneOf item with a match wins";
    private static final List<String> REJECTIONS = List.of(PATH_DIFFERS, LACKS_ATTRIBUTE, LACKS_TYPE, ALIAS_MISSING,
            NO_INSTANCE, ANY_OF, ONE_OF);

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES);

    private record Result(Outcome outcome, Integer winner, List<String> matches, List<String> reasons, List<FiredRule> fired) {
    }

    /** Decides: every decision derives its Trials and one Rejection per reason. */
    private Result decide(List<Object> facts) {
        return decide(facts, ImplementationDecider.PHASES);
    }

    private Result decide(List<Object> facts, List<String> phases) {
        List<Object> all = new ArrayList<>(facts);
        all.add(new InterfaceQuery(POSTGRES));
        var run = ruleBase.run(all, phases, session -> {
            Outcome outcome = factsOf(session, Verdict.class).stream().map(Verdict::outcome).findFirst().orElse(null);
            Integer winner = factsOf(session, WinningItem.class).stream().map(w -> w.item().index()).findFirst().orElse(null);
            List<String> matches = new ArrayList<>(factsOf(session, ItemMatch.class).stream()
                    .map(match -> match.item().index() + ":" + match.implementation().key()).toList());
            List<String> reasons = new ArrayList<>(factsOf(session, Rejection.class).stream().map(Rejection::reason).toList());
            return new Result(outcome, winner, matches, reasons, null);
        });
        Result r = run.result();
        return new Result(r.outcome(), r.winner(), r.matches(), r.reasons(), run.firedRules());
    }

    private static void assertOnlyRejection(Result result, String rule) {
        assertFired(result.fired(), rule);
        REJECTIONS.stream().filter(other -> !other.equals(rule)).forEach(other -> assertNotFired(result.fired(), other));
    }

    private static List<Object> facts(PolicyRule rule, List<OneOfItem> items, Implementation... implementations) {
        List<Object> facts = new ArrayList<>();
        facts.add(rule);
        items.forEach(item -> facts.addAll(withConstraints(item)));
        for (Implementation implementation : implementations) {
            facts.addAll(withRequirements(implementation));
        }
        facts.add(available("k8s", K8S));
        return facts;
    }

    @Test
    void emptyConstraintsMatchAnImplementationWithoutRequirements() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Result result = decide(facts(rule, List.of(anyItem(rule, 0)), impl("cap.implementation.a", "0.1.0").build()));

        assertEquals(Outcome.SELECTED, result.outcome());
        assertFiredBefore(result.fired(), TRIAL, MATCHES);
        assertFiredBefore(result.fired(), MATCHES, WINS);
        REJECTIONS.forEach(rejection -> assertNotFired(result.fired(), rejection));
    }

    /** A match is a trial that no reason rejects: the decision reads the Rejections an explanation lists. */
    @Test
    void aMatchIsATrialNoReasonRejects() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        OneOfItem item = item(rule, 0, "cap.implementation.b", List.of(), List.of());
        Result result = decide(facts(rule, List.of(item), impl("cap.implementation.a", "0.1.0").build(),
                impl("cap.implementation.b", "0.1.0").build()));

        assertEquals(List.of("0:cap.implementation.b:0.1.0"), result.matches());
        assertFiredTimes(result.fired(), TRIAL, 2);
        assertFiredTimes(result.fired(), PATH_DIFFERS, 1);
        assertFiredTimes(result.fired(), MATCHES, 1);
        assertEquals(List.of("path cap.implementation.a is not cap.implementation.b"), result.reasons());
    }

    /** A constraint listed many times is one constraint: one join per pair, one reason (issue 44). */
    @Test
    void aRepeatedAttributeConstraintIsOneConstraint() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Ref wanted = new Ref("cap.attribute.cloud.provider.gcp", null);
        OneOfItem item = item(rule, 0, null, java.util.Collections.nCopies(100, wanted), List.of());
        Result result = decide(facts(rule, List.of(item), impl("cap.implementation.a", "0.1.0").build(),
                impl("cap.implementation.b", "0.1.0").attribute("cap.attribute.cloud.provider.gcp", "0.1.0").build()));

        assertEquals(List.of("0:cap.implementation.b:0.1.0"), result.matches());
        assertEquals(List.of("missing attribute cap.attribute.cloud.provider.gcp"), result.reasons());
        assertFiredTimes(result.fired(), LACKS_ATTRIBUTE, 1);
    }

    @Test
    void implementationOfAnotherInterfaceRevisionIsNotTried() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Implementation other = impl("cap.implementation.a", "0.1.0")
                .implementing(new Ref(POSTGRES.path(), "0.2.0")).build();
        Result result = decide(facts(rule, List.of(anyItem(rule, 0)), other));

        assertEquals(Outcome.NO_MATCH, result.outcome());
        assertNotFired(result.fired(), TRIAL);
    }

    @Test
    void pathConstraintIsExact() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        OneOfItem item = item(rule, 0, "cap.implementation.bitnami", List.of(), List.of());
        Result result = decide(facts(rule, List.of(item), impl("cap.implementation.bitnami.postgresql.install", "0.1.0").build()));

        assertEquals(Outcome.NO_MATCH, result.outcome());
        assertOnlyRejection(result, PATH_DIFFERS);
        assertEquals(List.of("path cap.implementation.bitnami.postgresql.install is not cap.implementation.bitnami"), result.reasons());
    }

    @Test
    void attributeWithRevisionMustMatchThatRevision() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        OneOfItem item = item(rule, 0, null, List.of(new Ref("cap.attribute.cloud.provider.gcp", "0.2.0")), List.of());
        Result result = decide(facts(rule, List.of(item),
                impl("cap.implementation.gcp", "0.1.0").attribute("cap.attribute.cloud.provider.gcp", "0.1.0").build()));

        assertEquals(Outcome.NO_MATCH, result.outcome());
        assertOnlyRejection(result, LACKS_ATTRIBUTE);
        assertEquals(List.of("missing attribute cap.attribute.cloud.provider.gcp:0.2.0"), result.reasons());
    }

    @Test
    void attributeWithoutRevisionMatchesAnyRevision() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        OneOfItem item = item(rule, 0, null, List.of(new Ref("cap.attribute.cloud.provider.gcp", null)), List.of());
        Result result = decide(facts(rule, List.of(item),
                impl("cap.implementation.gcp", "0.1.0").attribute("cap.attribute.cloud.provider.gcp", "0.1.0").build()));

        assertEquals(Outcome.SELECTED, result.outcome());
        assertNotFired(result.fired(), LACKS_ATTRIBUTE);
    }

    @Test
    void requiresConstraintNeedsTheTypeInSpecRequires() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        OneOfItem item = item(rule, 0, null, List.of(), List.of(new Ref("cap.core.type.platform.kubernetes", null)));
        Implementation without = impl("cap.implementation.plain", "0.1.0").build();
        Implementation with = impl("cap.implementation.k8s", "0.1.0").requires("cap.core.type.platform", Quantifier.ONE_OF, K8S, null).build();
        Result result = decide(facts(rule, List.of(item), without, with));

        assertEquals(List.of("0:cap.implementation.k8s:0.1.0"), result.matches());
        assertOnlyRejection(result, LACKS_TYPE);
    }

    @Test
    void aliasedRequirementNeedsAnInjectedTypeInstance() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 2);
        OneOfItem withoutInject = anyItem(rule, 0);
        OneOfItem withInject = anyItem(rule, 1);
        Implementation cloudsql = impl("cap.implementation.gcp.cloudsql", "0.1.0")
                .requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, "gcp-sa").build();
        List<Object> facts = facts(rule, List.of(withoutInject, withInject), cloudsql);
        facts.add(available("sa-1", GCP_SA));
        facts.add(injected(withInject, "sa-1", GCP_SA));

        Result result = decide(facts);

        assertEquals(Outcome.SELECTED, result.outcome());
        assertEquals(1, result.winner());
        assertEquals(List.of("1:cap.implementation.gcp.cloudsql:0.1.0"), result.matches());
        assertOnlyRejection(result, ALIAS_MISSING);
        assertFiredTimes(result.fired(), ALIAS_SATISFIED, 1);
        assertTrue(result.reasons().contains("requirement cap.type.gcp.auth.service-account:0.1.0 (alias gcp-sa) needs an injected TypeInstance"));
    }

    @Test
    void allOfRequirementWithoutTypeInstanceRejects() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Implementation impl = impl("cap.implementation.x", "0.1.0")
                .requires("cap.type.gcp.auth", Quantifier.ALL_OF, GCP_SA, null).build();
        Result result = decide(facts(rule, List.of(anyItem(rule, 0)), impl));

        assertEquals(Outcome.NO_MATCH, result.outcome());
        assertOnlyRejection(result, NO_INSTANCE);
    }

    @Test
    void anyOfGroupNeedsOneSatisfiedItem() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Ref nomad = new Ref("cap.type.platform.nomad", "0.1.0");
        Implementation satisfied = impl("cap.implementation.a", "0.1.0")
                .requires("cap.core.type.platform", Quantifier.ANY_OF, K8S, null, nomad, null).build();
        Implementation unsatisfied = impl("cap.implementation.b", "0.1.0")
                .requires("cap.type.platform", Quantifier.ANY_OF, nomad, null).build();
        Result result = decide(facts(rule, List.of(anyItem(rule, 0)), satisfied, unsatisfied));

        assertEquals(List.of("0:cap.implementation.a:0.1.0"), result.matches());
        assertOnlyRejection(result, ANY_OF);
    }

    @Test
    void oneOfGroupNeedsExactlyOneSatisfiedItem() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 1);
        Ref other = new Ref("cap.core.type.platform.other", "0.1.0");
        Implementation two = impl("cap.implementation.two", "0.1.0")
                .requires("cap.core.type.platform", Quantifier.ONE_OF, K8S, null, other, null).build();
        Implementation zero = impl("cap.implementation.zero", "0.1.0")
                .requires("cap.core.type.platform", Quantifier.ONE_OF, new Ref("cap.core.type.platform.nomad", "0.1.0"), null).build();
        Implementation one = impl("cap.implementation.one", "0.1.0")
                .requires("cap.core.type.platform", Quantifier.ONE_OF, K8S, null).build();
        List<Object> facts = facts(rule, List.of(anyItem(rule, 0)), two, zero, one);
        facts.add(available("other", other));

        Result result = decide(facts);

        assertEquals(List.of("0:cap.implementation.one:0.1.0"), result.matches());
        assertOnlyRejection(result, ONE_OF);
        assertTrue(result.reasons().contains("oneOf group cap.core.type.platform has 2 satisfied items, exactly 1 allowed"));
        assertTrue(result.reasons().contains("oneOf group cap.core.type.platform has 0 satisfied items, exactly 1 allowed"));
    }

    @Test
    void firstItemWithAMatchWinsEvenWhenLaterItemsMatchMore() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 2);
        OneOfItem onlyB = item(rule, 0, "cap.implementation.b", List.of(), List.of());
        OneOfItem any = anyItem(rule, 1);
        Result result = decide(facts(rule, List.of(onlyB, any),
                impl("cap.implementation.a", "0.1.0").build(), impl("cap.implementation.b", "0.1.0").build()));

        assertEquals(Outcome.SELECTED, result.outcome());
        assertEquals(0, result.winner());
        assertFiredTimes(result.fired(), WINS, 1);
    }

    @Test
    void emptyOneOfIsDenied() {
        PolicyRule rule = rule(0, new Ref("cap.*", null), 0);
        Result result = decide(facts(rule, List.of(), impl("cap.implementation.a", "0.1.0").build()));

        assertEquals(Outcome.DENIED, result.outcome());
        assertFired(result.fired(), "Outcome DENIED when the applicable rule has an empty oneOf");
        assertNotFired(result.fired(), "Outcome NO_MATCH when no oneOf item matched");
        assertNotFired(result.fired(), TRIAL);
    }

    @Test
    void noRuleWhenNoKeyNamesTheInterface() {
        Result result = decide(List.of(impl("cap.implementation.a", "0.1.0").build()));

        assertEquals(Outcome.NO_RULE, result.outcome());
        assertFired(result.fired(), "Outcome NO_RULE when no rule key names the Interface");
        assertNotFired(result.fired(), "Outcome NO_MATCH when no oneOf item matched");
    }
}
