package io.arbiter.decision.implementation;

import io.arbiter.decision.implementation.ImplementationFacts.ApplicableRule;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.decision.implementation.ImplementationFacts.PolicyRule;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.arbiter.engine.CompiledRuleBase.factsOf;
import static io.arbiter.decision.implementation.Facts.POSTGRES;
import static io.arbiter.decision.implementation.Facts.rule;
import static io.arbiter.testing.RuleTestSupport.assertFired;
import static io.arbiter.testing.RuleTestSupport.assertFiredBefore;
import static io.arbiter.testing.RuleTestSupport.assertNotFired;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Rule-key rules (rules/implementation/10-rule-keys.drl) and the precedence table (policy-syntax section 2). */
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

    private Outcome decide(Ref query, PolicyRule... rules) {
        List<Object> facts = new ArrayList<>(List.of(rules));
        facts.add(new InterfaceQuery(query));
        var run = RuleTestSupport.fire(ruleBase, facts, session -> {
            return factsOf(session, ApplicableRule.class).stream().map(ApplicableRule::rule).findFirst().orElse(null);
        });
        return new Outcome(run.result(), run.firedRules());
    }

    @Test
    void exactPathAndRevisionWinsOverPathAndCatchAll() {
        PolicyRule any = rule(0, new Ref("cap.*", null), 1);
        PolicyRule path = rule(1, new Ref(POSTGRES.path(), null), 1);
        PolicyRule exact = rule(2, POSTGRES, 1);

        Outcome outcome = decide(POSTGRES, any, path, exact);

        assertEquals(exact, outcome.applicable());
        assertFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), PATH);
        assertFired(outcome.fired(), ANY);
        assertFired(outcome.fired(), ROW_EXACT);
        assertFiredBefore(outcome.fired(), ROW_EXACT, SELECT);
        RuleTestSupport.assertFiredTimes(outcome.fired(), SELECT, 1);
    }

    @Test
    void pathWinsOverCatchAllWhenNoExactRuleExists() {
        PolicyRule any = rule(0, new Ref("cap.*", null), 1);
        PolicyRule path = rule(1, new Ref(POSTGRES.path(), null), 1);

        Outcome outcome = decide(POSTGRES, any, path);

        assertEquals(path, outcome.applicable());
        assertNotFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), ROW_PATH);
        assertFired(outcome.fired(), ROW_ANY);
    }

    @Test
    void catchAllAppliesWhenNothingElseNamesTheInterface() {
        PolicyRule any = rule(0, new Ref("cap.*", null), 1);
        PolicyRule other = rule(1, new Ref("cap.interface.productivity.mattermost.install", null), 1);

        Outcome outcome = decide(POSTGRES, any, other);

        assertEquals(any, outcome.applicable());
        assertNotFired(outcome.fired(), PATH);
        assertNotFired(outcome.fired(), EXACT);
        assertFired(outcome.fired(), ROW_ANY);
    }

    @Test
    void ruleForAnotherRevisionDoesNotApply() {
        PolicyRule otherRevision = rule(0, new Ref(POSTGRES.path(), "0.2.0"), 1);

        Outcome outcome = decide(POSTGRES, otherRevision);

        assertNull(outcome.applicable());
        assertNotFired(outcome.fired(), EXACT);
        assertNotFired(outcome.fired(), SELECT);
    }

    @Test
    void patternOtherThanCapStarIsNotARuleKey() {
        PolicyRule pattern = rule(0, new Ref("cap.interface.database.*", null), 1);

        Outcome outcome = decide(POSTGRES, pattern);

        assertNull(outcome.applicable());
        assertNotFired(outcome.fired(), ANY);
        assertNotFired(outcome.fired(), PATH);
        assertNotFired(outcome.fired(), EXACT);
    }

    @Test
    void capStarWithARevisionStillNamesEveryInterface() {
        PolicyRule any = rule(0, new Ref("cap.*", "0.1.0"), 1);

        Outcome outcome = decide(POSTGRES, any);

        assertEquals(any, outcome.applicable());
        assertFired(outcome.fired(), ANY);
        assertNotFired(outcome.fired(), EXACT);
    }

    @Test
    void unknownRevisionOnlyMatchesPathAndCatchAllKeys() {
        PolicyRule exact = rule(0, POSTGRES, 1);
        PolicyRule path = rule(1, new Ref(POSTGRES.path(), null), 1);

        Outcome outcome = decide(new Ref(POSTGRES.path(), null), exact, path);

        assertEquals(path, outcome.applicable());
        assertNotFired(outcome.fired(), EXACT);
    }
}
