package io.arbiter.decision.step;

import io.arbiter.decision.backend.BackendPolicyType;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.policytype.Chain;
import io.arbiter.policytype.Target;

import java.util.List;

/**
 * {@code POST /v1/decisions/step}: one rendering step of an Action. The Implementation of an Interface
 * ({@code capact.implementation}), then the storage backend of each TypeInstance the selected Implementation outputs
 * ({@code capact.backend}, which consumes the selected Implementation): one request, one envelope, one record.
 */
public final class StepChain implements io.arbiter.policytype.ChainProvider {

    @Override
    public List<Chain> chains() {
        return List.of(new Chain(
                new Target("step", "One rendering step: which Implementation serves an Interface and what to inject into"
                        + " it, then which storage backend stores each TypeInstance the selected Implementation outputs."),
                List.of(ImplementationPolicyType.NAME, BackendPolicyType.NAME)));
    }
}
