package io.arbiter.policy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * A validated policy with the tree it came from (served back by {@code GET /v1/policy}), the syntax version it
 * was written in, its content revision, and non-fatal warnings found while loading it.
 */
public record PolicyDocument(Policy policy, JsonNode source, String version, String revision, List<String> warnings) {

    public PolicyDocument {
        warnings = List.copyOf(warnings);
    }

    public PolicyDocument withWarnings(List<String> newWarnings) {
        return new PolicyDocument(policy, source, version, revision, newWarnings);
    }
}
