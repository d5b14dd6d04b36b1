package io.arbiter.decision.rollout;

import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.policytype.AbstractPolicyType;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.SupportStatus;
import io.arbiter.policytype.Target;

import java.util.List;
import java.util.Set;

import static io.arbiter.policytype.PolicyTypeVersion.since;

/** {@code ocm.rollout}: which clusters a progressive rollout of a policy update reaches next (seed 004). */
public final class RolloutPolicyType extends AbstractPolicyType {

    public static final String NAME = "ocm.rollout";

    public RolloutPolicyType() {
        super(NAME, "Open Cluster Management rollout strategies (All, Progressive, ProgressivePerGroup) for policy updates.",
                List.of(PolicyTypeVersion.of("0.1.0", since(SupportStatus.SUPPORTED, "2026.11"))),
                new RuleSet(RolloutDecider.KIND, RolloutDecider.PHASES),
                Set.of(), // a decision reads only its request and this type's rules
                new Target("rollout",
                        "Progressive rollout of a policy update over decision groups: clusters to update now, each cluster's "
                                + "rollout status and remediation action, the aggregated status (Open Cluster Management)."));
    }

    @Override
    public void checkRuleBase(CompiledRuleBase ruleBase) {
        RolloutDecider.requireCoverage(ruleBase);
    }

    @Override
    public Decision decide(DecisionCall call) {
        RolloutRequest request = RolloutRequest.parse(call.request().tree());
        RolloutDecision decision = RolloutDecider.decide(request, call.ruleBase());
        return Decision.of(decision, decision.firedRules());
    }
}
