package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The merge order: the table's default (ACTION, GLOBAL, WORKFLOW) and a configured one (serve --policy-order). */
class PolicyOrderTest {

    private static final String REQUEST = """
            {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
             "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
                 "oneOf": [{"implementationConstraints": {"path": "cap.implementation.aws.rds.postgresql.install"},
                            "inject": {"requiredTypeInstances": [{"id": "517cf827-233c-4bf1-8fc9-48534424dd58"}]}}]}]}},
             "workflowPolicies": [{"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
                 "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"},
                            "inject": {"additionalParameters": [{"name": "additional-parameters", "value": {"replicas": 2}}]}}]}]}}]}
            """;

    private static JsonNode decide(List<String> order) {
        Snapshot base = Fixtures.snapshot(Fixtures.embeddedPolicy());
        Snapshot snapshot = new Snapshot(base.policy(), base.ruleBases(), base.catalog(), base.typeInstances(),
                Settings.DEFAULT_PLATFORM, order);
        return Fixtures.decisions(snapshot).decide("implementation", REQUEST.getBytes(StandardCharsets.UTF_8), "application/json");
    }

    @Test
    void byDefaultTheActionPolicyIsTriedFirst() {
        JsonNode decision = decide(List.of());

        assertEquals("cap.implementation.aws.rds.postgresql.install", decision.path("selected").path("path").asText());
        assertEquals(0, decision.path("rule").path("oneOfIndex").asInt());
        assertEquals("aws-credentials", decision.path("inject").path("requiredTypeInstances").get(0).path("alias").asText());
    }

    @Test
    void aConfiguredOrderPutsWorkflowPoliciesFirst() {
        JsonNode decision = decide(List.of("WORKFLOW", "ACTION", "GLOBAL"));

        assertEquals("cap.implementation.bitnami.postgresql.install", decision.path("selected").path("path").asText());
        assertEquals(0, decision.path("rule").path("oneOfIndex").asInt());
        assertEquals(2, decision.path("inject").path("additionalParameters").get(0).path("value").path("replicas").asInt());
        assertEquals(true, decision.path("firedRules").toString().contains("Configured policy order ranks a policy"));
    }
}
