package io.arbiter.decision.backend;

import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;

import java.util.List;

/** The result of {@code POST /v1/decisions/backend}, field for field as decision-api.md names them. */
public record BackendDecision(List<TypeBackend> backends,
                              @com.fasterxml.jackson.annotation.JsonIgnore List<FiredRule> firedRules) {

    /** The backend of one requested Type; {@code backend} and {@code ruleTypeRef} are null for BUILTIN. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS)
    public record TypeBackend(Ref typeRef, Backend backend, BackendFacts.MatchLevel matchedBy, Ref ruleTypeRef) {
    }

    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record Backend(String id, String description) {
    }
}
