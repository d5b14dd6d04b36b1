package io.arbiter.policytype;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** How a policy type is listed by {@code GET /v1/policy-types} and {@code arbiter policy-types}. */
public record PolicyTypeView(String name, String description, List<PolicyTypeVersion> versions,
                             List<TargetView> targets, List<DecisionData> consumes, List<DecisionData> produces) {

    public record TargetView(String name, String endpoint, String description, JsonNode schema) {
    }

    public static PolicyTypeView of(PolicyType type, boolean withSchemas) {
        return new PolicyTypeView(type.name(), type.description(), type.versions(),
                type.targets().stream().map(t -> new TargetView(t.name(), "POST /v1/decisions/" + t.name(),
                        t.description(), withSchemas ? t.requestSchema() : null)).toList(),
                type.consumes(), type.produces());
    }
}
