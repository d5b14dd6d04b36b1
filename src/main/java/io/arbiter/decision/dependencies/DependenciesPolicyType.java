package io.arbiter.decision.dependencies;

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

/** {@code ocm.dependencies}: whether each policy template may be applied, given the compliance of what it depends on. */
public final class DependenciesPolicyType extends AbstractPolicyType {

    public static final String NAME = "ocm.dependencies";

    public DependenciesPolicyType() {
        super(NAME, "Open Cluster Management policy template dependencies: dependencies and extraDependencies gate each template.",
                List.of(PolicyTypeVersion.of("0.1.0", since(SupportStatus.SUPPORTED, "2025.06"))),
                new RuleSet(DependenciesDecider.KIND, DependenciesDecider.PHASES),
                Set.of(), // a decision reads only its request and this type's rules
                new Target("dependencies",
                        "Dependency gating of policy templates over a snapshot of observed objects (Open Cluster Management)."));
    }

    /** Nothing but the request and the snapshot (no clock): repeated requests are answered from the runtime's memo. */
    @Override
    public boolean decidesFromRequestAndSnapshot() {
        return true;
    }

    @Override
    public Decision decide(DecisionCall call) {
        UniqueEntries.require(call.request().tree());
        DependenciesDecision decision = DependenciesDecider.decide(call.request().tree(), call.ruleBase());
        return Decision.of(decision, decision.firedRules());
    }
}
