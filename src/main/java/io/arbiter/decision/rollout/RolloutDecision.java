package io.arbiter.decision.rollout;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.engine.FiredRule;

import java.util.List;

/** The response of {@code POST /v1/decisions/rollout}, field for field as issue 8's Contract names them. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RolloutDecision(String decisionId, List<ClusterEntry> toRollout, List<ClusterEntry> timedOut,
                              List<RemovedCluster> removed, boolean maxFailureBreach, Number recheckAfterSeconds,
                              List<ClusterStatus> clusterStatuses, String aggregatedStatus,
                              List<FiredRule> firedRules, String rulesRevision) {

    /** A cluster in {@code toRollout} or {@code timedOut}. */
    public record ClusterEntry(String cluster, int groupIndex, String status, String remediationAction) {
    }

    /** A record of a cluster in no decision group. */
    public record RemovedCluster(String cluster, String status) {
    }

    /** A group cluster after this decision: its rollout status and its replicated policy's remediation action. */
    public record ClusterStatus(String cluster, String rolloutStatus, String remediationAction) {
    }
}
