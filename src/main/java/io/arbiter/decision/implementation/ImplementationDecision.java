package io.arbiter.decision.implementation;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.engine.FiredRule;
import io.arbiter.model.Ref;

import java.util.List;

/**
 * The result of an implementation decision, field for field as decision-api.md names them; the runtime writes the
 * envelope around it ({@code decisionId}, {@code outcome}, {@code firedRules}, the revisions, {@code warnings}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ImplementationDecision(@JsonIgnore ImplementationFacts.Outcome outcome,
                                     @JsonProperty("interface") Ref interfaceRef, AppliedRule rule,
                                     @JsonInclude(JsonInclude.Include.ALWAYS) List<Ref> candidates,
                                     @JsonInclude(JsonInclude.Include.ALWAYS) Ref selected, Injection inject,
                                     List<StorageBackend> backends,
                                     @JsonIgnore List<FiredRule> firedRules, List<ItemExplanation> explanation) {

    /** The policy rule that decided, and the index of the winning item in its (merged) oneOf list. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record AppliedRule(@JsonProperty("interface") Ref interfaceRef, Integer oneOfIndex) {
    }

    public record Injection(List<RequiredTypeInstance> requiredTypeInstances,
                            List<AdditionalTypeInstance> additionalTypeInstances,
                            List<AdditionalParameter> additionalParameters) {
        public static final Injection NONE = new Injection(List.of(), List.of(), List.of());
    }

    public record RequiredTypeInstance(String alias, String id, Ref typeRef) {
    }

    /** The backend of TypeInstances the Implementation stores under a Hub storage alias (policy-syntax 6.1). */
    public record StorageBackend(String alias, String id, ImplementationFacts.InjectionSource source) {
    }

    public record AdditionalTypeInstance(String name, String id) {
    }

    public record AdditionalParameter(String name, JsonNode value) {
    }

    /** For {@code explain: true}: what one oneOf item asked for, what matched, and why the others did not. */
    /** {@code tried} Implementations of the Interface are split into {@code matched} and {@code rejected}. */
    public record ItemExplanation(int oneOfIndex, String item, Constraints constraints, int tried, List<Ref> matched,
                                  List<RejectedImplementation> rejected) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Constraints(String path, List<Ref> attributes, List<Ref> requires) {
    }

    public record RejectedImplementation(Ref implementation, List<String> reasons) {
    }
}
