package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.runtime.Envelope;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every decision target answers in the one envelope the runtime writes (issue 46), the test-only plugin's included:
 * a fresh decision id, the target, type and version, the outcome, the firings, every revision (the live ones) and the
 * warnings, beside the type's result; and the decision record keeps the very bytes answered.
 */
class EnvelopeTest {

    private static final Map<String, String> REQUESTS = new LinkedHashMap<>();

    static {
        REQUESTS.put("implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
        REQUESTS.put("backend", "{\"typeRefs\": [{\"path\": \"cap.type.x\"}]}");
        REQUESTS.put("dependencies", "{\"policies\": [{\"name\": \"p\", \"namespace\": \"ns\"}]}"); // fires nothing
        REQUESTS.put("rollout", "{\"decisionGroups\": [{\"groupIndex\": 0, \"clusters\": [\"c1\"]}], \"clusters\": []}");
        REQUESTS.put("greeting", "{\"name\": \"Ada\", \"language\": \"pl\"}");
    }

    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        client = new HttpTestClient(TestServers.shared().port());
    }

    @Test
    void everyTargetAnswersInTheOneEnvelope() {
        JsonNode status = client.get("/v1/status").json();
        JsonNode types = client.get("/v1/policy-types").json().path("policyTypes");
        Set<String> targets = new java.util.TreeSet<>();
        types.forEach(type -> type.path("targets").forEach(target -> targets.add(target.path("name").asText())));
        assertEquals(new java.util.TreeSet<>(REQUESTS.keySet()), targets, "a request for every registered target");

        for (Map.Entry<String, String> entry : REQUESTS.entrySet()) {
            String target = entry.getKey();
            HttpTestClient.Response response = client.postJson("/v1/decisions/" + target, entry.getValue());
            assertEquals(200, response.status(), target + ": " + response.body());
            JsonNode decision = response.json();
            Envelope.FIELDS.forEach(field -> assertTrue(decision.has(field), target + " has no " + field + ": " + decision));
            assertTrue(decision.path("decisionId").asText().matches("[0-9a-f-]{36}"), target);
            assertEquals(target, decision.path("target").asText());
            assertEquals(ownerOf(types, target), decision.path("type").asText(), target);
            assertTrue(decision.path("version").asText().matches("\\d+\\.\\d+\\.\\d+"), target + ": " + decision);
            assertTrue(!decision.path("outcome").asText().isEmpty(), target);
            assertTrue(decision.path("firedRules").isArray(), target);
            for (int i = 0; i < decision.path("firedRules").size(); i++) {
                assertEquals(i + 1, decision.path("firedRules").get(i).path("order").asInt(), target);
            }
            assertTrue(decision.path("warnings").isArray(), target);
            for (String revision : List.of("policyRevision", "catalogRevision", "typeInstancesRevision", "snapshotRevision")) {
                assertEquals(status.path(revision).asText(), decision.path(revision).asText(), target + " " + revision);
            }
            assertTrue(!decision.path("rulesRevision").asText().isEmpty(), target);

            JsonNode logged = client.get("/v1/decisions/" + decision.path("decisionId").asText()).json();
            assertEquals(decision, logged.path("result"), target + ": the record keeps the response");
            assertEquals(target, logged.path("endpoint").asText());
            assertEquals(decision.path("outcome"), logged.path("outcome"));
        }
    }

    @Test
    void twoDecisionsOfOneRequestHaveTwoIds() {
        String first = client.postJson("/v1/decisions/greeting", REQUESTS.get("greeting")).json().path("decisionId").asText();
        String second = client.postJson("/v1/decisions/greeting", REQUESTS.get("greeting")).json().path("decisionId").asText();
        assertTrue(!first.equals(second));
        assertEquals(first, client.get("/v1/decisions/" + first).json().path("decisionId").asText());
        assertEquals(second, client.get("/v1/decisions/" + second).json().path("decisionId").asText());
    }

    private static String ownerOf(JsonNode types, String target) {
        for (JsonNode type : types) {
            for (JsonNode listed : type.path("targets")) {
                if (listed.path("name").asText().equals(target)) {
                    return type.path("name").asText();
                }
            }
        }
        throw new AssertionError("no type serves " + target);
    }
}
