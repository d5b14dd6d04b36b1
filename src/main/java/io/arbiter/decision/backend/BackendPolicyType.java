package io.arbiter.decision.backend;

import io.arbiter.policytype.DecisionData;
import io.arbiter.decision.DecisionException;
import io.arbiter.decision.Snapshot;
import io.arbiter.policy.PolicyParser;
import io.arbiter.policytype.AbstractPolicyType;
import io.arbiter.policytype.Decision;
import io.arbiter.policytype.DecisionCall;
import io.arbiter.policytype.Masks;
import io.arbiter.policytype.PolicyTypeVersion;
import io.arbiter.policytype.RuleSet;
import io.arbiter.policytype.SupportStatus;
import io.arbiter.policytype.Target;

import java.util.EnumSet;
import java.util.List;

import static io.arbiter.policytype.PolicyTypeVersion.since;

/** {@code capact.backend}: which storage backend stores TypeInstances of given Types (policy {@code typeInstance.rules}). */
public final class BackendPolicyType extends AbstractPolicyType {

    public static final String NAME = "capact.backend";

    public BackendPolicyType() {
        super(NAME, "Capact TypeInstance storage backends: typeInstance.rules by exact Type, path, or path pattern.",
                List.of(PolicyTypeVersion.of("0.2.0", since(SupportStatus.SUPPORTED, "2021.09"))),
                new RuleSet(List.of("policy-merge", BackendDecider.KIND), BackendDecider.PHASES),
                EnumSet.allOf(Snapshot.Part.class),
                new Target("backend",
                        "Which storage backend stores TypeInstances of each given Type (a batch of typeRefs)."));
    }

    @Override
    public List<DecisionData> consumes() {
        return List.of(new DecisionData("capact.implementation", "selected-rule"));
    }

    @Override
    public Decision decide(DecisionCall call) {
        if (call.request().tree().hasNonNull("actionPolicy")) {
            call.requireUsableVersion(PolicyParser.versionOf(call.request().tree().get("actionPolicy")), "$.actionPolicy",
                    DecisionException.Code.INVALID_POLICY);
        }
        BackendDecision decision = BackendDecider.decide(call.request(), call.snapshot(), call.ruleBase());
        return Decision.of(decision, decision.firedRules());
    }

    /** Additional parameter values in the action policy a request carries. */
    @Override
    public Masks masks() {
        return new Masks(List.of("actionPolicy." + io.arbiter.policy.Policy.PARAMETER_VALUES), List.of());
    }
}
