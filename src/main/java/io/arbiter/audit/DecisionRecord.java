package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line of the decision log: what was asked, under which policy and rule-set revisions, what was decided,
 * which rules fired (inside {@code result.firedRules}) and how long it took.
 */
public record DecisionRecord(String decisionId, String timestamp, String endpoint, String requestDigest,
                             JsonNode request, String policyRevision, String rulesRevision, String outcome,
                             JsonNode result, long durationMicros) {
}
