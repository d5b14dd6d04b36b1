package io.arbiter.decision.rollout;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.decision.rollout.RolloutFacts.Remediation;
import io.arbiter.decision.rollout.RolloutFacts.Status;
import io.arbiter.engine.FiredRule;

import java.util.List;

/**
 * The response of {@code POST /v1/decisions/rollout}, field for field as issue 8's Contract names them; statuses and
 * remediation actions are written as their enums' wire spellings.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RolloutDecision(List<ClusterEntry> toRollout, List<ClusterEntry> timedOut,
                              List<RemovedCluster> removed, boolean maxFailureBreach, Number recheckAfterSeconds,
                              List<ClusterStatus> clusterStatuses, Status aggregatedStatus,
                              @com.fasterxml.jackson.annotation.JsonIgnore List<FiredRule> firedRules) {

    /** A cluster in {@code toRollout} or {@code timedOut}. */
    public record ClusterEntry(String cluster, int groupIndex, Status status, Remediation remediationAction) {
    }

    /** A record of a cluster in no decision group. */
    public record RemovedCluster(String cluster, Status status) {
    }

    /** A group cluster after this decision: its rollout status and its replicated policy's remediation action. */
    public record ClusterStatus(String cluster, Status rolloutStatus, Remediation remediationAction) {
    }
}
