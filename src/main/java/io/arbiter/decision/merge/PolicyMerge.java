package io.arbiter.decision.merge;

import io.arbiter.decision.merge.PolicyMergeFacts.ConfiguredRank;
import io.arbiter.decision.merge.PolicyMergeFacts.PolicySource;
import io.arbiter.decision.merge.PolicyMergeFacts.SourceKind;
import io.arbiter.policy.Policy;

import java.util.ArrayList;
import java.util.List;

/**
 * The inputs of a policy merge (policy-syntax section 5), built the same way for every policy type that merges: the
 * policies taking part, each with where it comes from, and the server's configured order. What each policy then
 * contributes (Interface rules, TypeInstance rules) is the type's own.
 */
public final class PolicyMerge {

    private PolicyMerge() {
    }

    /** One policy of the merge: where it comes from, what it says, and the prefix of locations inside it. */
    public record Sourced(PolicySource source, Policy policy, String prefix) {
    }

    /** The request's action policy (null: none), the server's global policy, then the workflow-step policies in order. */
    public static List<Sourced> policies(Policy action, Policy global, List<Policy> workflows) {
        List<Sourced> policies = new ArrayList<>();
        if (action != null) {
            policies.add(new Sourced(new PolicySource("actionPolicy", SourceKind.ACTION, 0, "$.actionPolicy"),
                    action, "$.actionPolicy."));
        }
        policies.add(new Sourced(new PolicySource("global", SourceKind.GLOBAL, 0, "$"), global, ""));
        for (int i = 0; i < workflows.size(); i++) {
            String location = "$.workflowPolicies[" + i + "]";
            policies.add(new Sourced(new PolicySource("workflowPolicies[" + i + "]", SourceKind.WORKFLOW, i, location),
                    workflows.get(i), location + "."));
        }
        return policies;
    }

    /** The ranks of {@code serve --policy-order} (kinds, highest first); empty: the merge-order table decides. */
    public static List<ConfiguredRank> configuredRanks(List<String> policyOrder) {
        List<ConfiguredRank> ranks = new ArrayList<>(policyOrder.size());
        for (int rank = 0; rank < policyOrder.size(); rank++) {
            ranks.add(new ConfiguredRank(SourceKind.valueOf(policyOrder.get(rank)), rank + 1));
        }
        return ranks;
    }
}
