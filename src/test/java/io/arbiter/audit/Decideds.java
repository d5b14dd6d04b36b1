package io.arbiter.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.implementation.ImplementationPolicyType;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRule;

import java.util.ArrayList;
import java.util.List;

/** What the runtime hands the audit for a response written by hand in a test (the runtime has the values typed). */
final class Decideds {

    private Decideds() {
    }

    static Audit.Decided of(Audit audit, String endpoint, byte[] body, JsonNode request, JsonNode response) {
        List<FiredRule> fired = new ArrayList<>();
        response.path("firedRules").forEach(firing -> fired.add(new FiredRule(firing.path("rule").asText(),
                firing.path("order").asInt(), List.of())));
        try {
            return new Audit.Decided(response.path("decisionId").asText(), endpoint, response.path("outcome").asText("DECIDED"),
                    response.path("policyRevision").asText(null), fired,
                    audit.logged(body, request, response, new ImplementationPolicyType().masks(), java.util.Map.of()),
                    Documents.jsonMapper().writeValueAsBytes(response), new ImplementationPolicyType().masks());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
