package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.decision.dependencies.DependencyFacts.Action;
import io.arbiter.decision.dependencies.DependencyFacts.State;
import io.arbiter.engine.FiredRule;

import java.util.List;

/** The response of {@code POST /v1/decisions/dependencies}, field for field as issue 7's Contract names them. */
public record DependenciesDecision(List<PolicyResult> policies, List<SetResult> policySets,
                                   List<PendingPolicy> pendingPolicies, List<List<String>> cycles,
                                   @com.fasterxml.jackson.annotation.JsonIgnore List<FiredRule> firedRules) {

    /** {@code compliant} is null when no template has a state yet. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record PolicyResult(String name, String namespace, String compliant, List<TemplateResult> templates) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TemplateResult(int index, String name, State state, String compliant, String message, Action action,
                                 List<UnmetDependency> unmet, List<String> waitingOn) {
    }

    public record UnmetDependency(DependencyRef dependency, String reason) {
    }

    /** A dependency as judged: after canonicalisation ({@code namespace} absent when empty). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record DependencyRef(String apiVersion, String kind, String name, String namespace, String compliance) {
    }

    /**
     * A pending request policy that a pending template waits on, and what its own pending templates wait on directly:
     * the next links of every waiting chain through it, stated once.
     */
    public record PendingPolicy(String policy, List<String> waitingOn) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record SetResult(String name, String namespace, String compliant, String message) {
    }
}
