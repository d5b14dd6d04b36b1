package io.arbiter.decision.implementation;

import io.arbiter.decision.implementation.ImplementationFacts.ApplicableRule;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.decision.implementation.ImplementationFacts.SourceRule;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.arbiter.decision.implementation.Facts.POSTGRES;
import static io.arbiter.decision.implementation.Facts.actionPolicy;
import static io.arbiter.decision.implementation.Facts.globalPolicy;
import static io.arbiter.decision.implementation.Facts.sourceRule;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Rule-key rules (rules/implementation/10-rule-keys.drl) and the precedence table (policy-syntax section 2): which key
 * of the policies' rules decides the Interface. The applicable rule is that key's rules merged (05-merge.drl).
 */
class RuleKeyRulesTest {

    private static final String EXACT = "Rule key names the Interface path and revision";
    private static final String PATH = "Rule key names the Interface path";
    private static final String ANY = "Rule key cap.* names every Interface";
    private static final String SELECT = "Applicable rule is the key match of highest precedence";
    private static final String ROW_EXACT = "Exact path and revision";
    private static final String ROW_PATH = "Path without revision";
    private static final String ROW_ANY = "Catch-all cap.*";

    private final CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.PHASES);

    private record Outcome(PolicyRule applicable, List<FiredRule> fired) {
    }

    /** The global policy with one rule per key (no items), asked for {@code query}. */
    private Outcome decide(Ref query, Ref... keys) {
        List<Object> facts = new ArrayList<>(List.of(globalPolicy()));
        for (int i = 0; i < keys.length; i++) {
            facts.add(sourceRule(globalPolicy(), i, keys[i]));
        }
        return decide(query, facts);
    }

    private Outcome decide(Ref query, List<Object> facts) {
        List<Object> all = new ArrayList<>(facts);
        all.add(new InterfaceQuery(query));
        var run = RuleTestSupport.fire(ruleBase, all, session -> {
            for (var row : session.getQueryResults("applicable rule")) {
                return ((ApplicableRule) row.get("$applicable")).rule();
            }
            return null;
        });
        return new Outcome(run.result(), run.firedRules());
    }

    private static final Ref ANY_KEY = new Ref("cap.*", null);
    private static final Ref PATH_KEY = new Ref(POSTGRES.path(), null);

    @Test
    void exactPathAndRevisionWinsOverPathAndCatchAll() {
        Outcome outcome = decide(POSTGRES, ANY_KEY, PATH_KEY, POSTGRES);

        assertEquals(POSTGRES, outcome.applicable().interfaceRef());
        assertFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), PATH);
        assertFired(outcome.fired(), ANY);
        assertFired(outcome.fired(), ROW_EXACT);
        assertFiredBefore(outcome.fired(), ROW_EXACT, SELECT);
        RuleTestSupport.assertFiredTimes(outcome.fired(), SELECT, 1);
    }

    @Test
    void pathWinsOverCatchAllWhenNoExactRuleExists() {
        Outcome outcome = decide(POSTGRES, ANY_KEY, PATH_KEY);

        assertEquals(PATH_KEY, outcome.applicable().interfaceRef());
        assertNotFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), ROW_PATH);
        assertFired(outcome.fired(), ROW_ANY);
    }

    @Test
    void catchAllAppliesWhenNothingElseNamesTheInterface() {
        Outcome outcome = decide(POSTGRES, ANY_KEY, new Ref("cap.interface.productivity.mattermost.install", null));

        assertEquals(ANY_KEY, outcome.applicable().interfaceRef());
        assertNotFired(outcome.fired(), PATH);
        assertNotFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), ROW_ANY);
    }

    @Test
    void ruleForAnotherRevisionDoesNotApply() {
        Outcome outcome = decide(POSTGRES, new Ref(POSTGRES.path(), "0.2.0"));

        assertNull(outcome.applicable());
        assertNotFired(outcome.fired(), EXACT);
        assertNotFired(outcome.fired(), SELECT);
    }

    @Test
    void patternOtherThanCapStarIsNotARuleKey() {
        Outcome outcome = decide(POSTGRES, new Ref("cap.interface.database.*", null));

        assertNull(outcome.applicable());
        assertNotFired(outcome.fired(), ANY);
    }

    @Test
    void unknownRevisionOnlyMatchesPathAndCatchAllKeys() {
        Outcome outcome = decide(PATH_KEY, POSTGRES, PATH_KEY);

        assertEquals(PATH_KEY, outcome.applicable().interfaceRef());
        assertNotFired(outcome.fired(), EXACT);
    }

    @Test
    void aKeyInSeveralPoliciesIsMatchedOnceAndItsRulesMergedIntoTheApplicableRule() {
        SourceRule action = sourceRule(actionPolicy(), 0, PATH_KEY);
        SourceRule global = sourceRule(globalPolicy(), 0, PATH_KEY);

        Outcome outcome = decide(POSTGRES, List.of(actionPolicy(), globalPolicy(), action, global));

        RuleTestSupport.assertFiredTimes(outcome.fired(), PATH, 1);
        RuleTestSupport.assertFiredTimes(outcome.fired(), ROW_PATH, 1);
        RuleTestSupport.assertFiredTimes(outcome.fired(), SELECT, 1);
        assertEquals(new PolicyRule(PATH_KEY.toString(), 0, PATH_KEY, ImplementationFacts.RuleKeyKind.PATH, 0), outcome.applicable());
        assertFiredBefore(outcome.fired(), SELECT, "The merged rule of the applicable key applies");
    }
}
