package io.arbiter.engine;

import io.arbiter.decision.implementation.ImplementationDecider;
import io.arbiter.decision.implementation.ImplementationFacts.InterfaceQuery;
import io.arbiter.model.Ref;
import io.arbiter.testing.RuleTestSupport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DecisionDeadlineTest {

    @Test
    void aDecisionThatEndsInTimeLeavesNoHaltBehind() {
        CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(ImplementationDecider.KIND, ImplementationDecider.ALL_PHASES);
        int before = DecisionDeadline.pendingHalts();
        for (int i = 0; i < 1_000; i++) {
            DecisionDeadline.after(DecisionDeadline.DEFAULT_BUDGET).within(() -> ruleBase.run(
                    List.of(new InterfaceQuery(new Ref("cap.interface.a", "0.1.0"))), session -> null));
        }
        // a cancelled halt kept until its deadline would hold its session for the whole budget
        assertEquals(before, DecisionDeadline.pendingHalts(), "halts left in the timer's queue");
    }
}
