package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line of the decision log: what was asked, under which policy, rule-set, catalog and TypeInstance-store
 * revisions (what reproducing it needs besides the request), what was decided,
 * which rules fired (inside {@code result.firedRules}) and how long it took.
 */
public record DecisionRecord(String decisionId, String timestamp, String endpoint, String requestDigest,
                             JsonNode request, String policyRevision, String rulesRevision, String catalogRevision,
                             String typeInstancesRevision, String outcome,
                             JsonNode result, long durationMicros) {
}
