package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.runtime.Envelope;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/decisions/step over real HTTP: the Implementation, then the backends of what it outputs (docs/api.md). */
class StepEndpointTest {

    private static final String PATH = "/v1/decisions/step";

    /** Stores PostgreSQL configs in the embedded Helm release storage; the rest get the built-in backend. */
    private static final String ACTION_POLICY = """
            {"apiVersion": "0.2.0",
             "typeInstance": {"rules": [{"typeRef": {"path": "cap.type.database.postgresql.config", "revision": "0.1.0"},
               "backend": {"id": "c268d3f5-8834-434b-bea2-b677793611c5", "description": "Helm release storage"}}]}}
            """;

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }

    @Test
    void decidesTheImplementationThenTheBackendOfEachOutputInOneRecord() {
        var response = client.postJson(PATH, """
                {"interface": {"path": "cap.interface.database.postgresql.install"}, "actionPolicy": %s}
                """.formatted(ACTION_POLICY));

        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        assertEquals("step", body.path("target").asText());
        assertFalse(body.has("parts") || body.has("result"), response.body());
        assertEquals("capact.implementation+capact.backend", body.path("type").asText());
        assertEquals("SELECTED", body.path("outcome").asText(), response.body());
        assertEquals("cap.implementation.bitnami.postgresql.install", body.path("implementation").path("selected").path("path").asText());
        JsonNode backends = body.path("backend").path("backends");
        assertEquals(1, backends.size(), response.body());
        assertEquals("cap.type.database.postgresql.config", backends.get(0).path("typeRef").path("path").asText());
        assertEquals("postgresql", body.path("backend").path("outputs").get(0).asText(), response.body());
        assertEquals("c268d3f5-8834-434b-bea2-b677793611c5", backends.get(0).path("backend").path("id").asText(), response.body());
        // both parts' firings, numbered in one sequence, each phase named by its part
        List<String> phases = new ArrayList<>();
        body.path("phases").forEach(phase -> phases.add(phase.path("phase").asText()));
        assertTrue(phases.stream().anyMatch(phase -> phase.startsWith("implementation/")), phases.toString());
        assertTrue(phases.stream().anyMatch(phase -> phase.startsWith("backend/")), phases.toString());
        JsonNode firings = body.path("firedRules");
        for (int i = 0; i < firings.size(); i++) {
            assertEquals(i + 1, firings.get(i).path("order").asInt());
        }
        // one record, as answered
        JsonNode logged = client.get("/v1/decisions/" + body.path("decisionId").asText()).json();
        assertEquals("step", logged.path("endpoint").asText(), logged.toString());
        assertEquals(body, logged.path("result"));
    }

    @Test
    void agreesWithTheImplementationAndBackendEndpointsCalledOneAfterTheOther() {
        String request = """
                {"interface": {"path": "cap.interface.productivity.mattermost.install"}, "actionPolicy": %s}
                """.formatted(ACTION_POLICY);
        JsonNode step = client.postJson(PATH, request).json();
        JsonNode implementation = client.postJson("/v1/decisions/implementation", request).json();
        assertEquals("SELECTED", implementation.path("outcome").asText(), implementation.toString());
        assertEquals(withoutEnvelope(implementation), step.path("implementation"));
        assertEquals(implementation.path("outcome"), step.path("outcome"));

        // the second call, as a rendering engine would make it: the Types the selected Implementation's Interface outputs
        ObjectNode backendRequest = Documents.jsonMapper().createObjectNode();
        ArrayNode typeRefs = backendRequest.putArray("typeRefs");
        typeRefs.addObject().put("path", "cap.type.productivity.mattermost.config").put("revision", "0.1.0");
        backendRequest.set("actionPolicy", read(ACTION_POLICY));
        JsonNode backend = client.postJson("/v1/decisions/backend", backendRequest.toString()).json();
        assertEquals(withoutEnvelope(backend).path("backends"), step.path("backend").path("backends"));
        assertEquals("[\"mattermost-config\"]", step.path("backend").path("outputs").toString());

        // the step's firings are the two decisions' firings, one after the other
        List<String> separately = new ArrayList<>();
        implementation.path("firedRules").forEach(firing -> separately.add(firing.path("rule").asText()));
        backend.path("firedRules").forEach(firing -> separately.add(firing.path("rule").asText()));
        List<String> together = new ArrayList<>();
        step.path("firedRules").forEach(firing -> together.add(firing.path("rule").asText()));
        assertEquals(separately, together);
    }

    @Test
    void noImplementationSelectedDecidesNoBackend() {
        var response = client.postJson(PATH, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "actionPolicy": {"apiVersion": "0.2.0", "interface": {"rules": [
                   {"interface": {"path": "cap.interface.database.postgresql.install"}, "oneOf": []}]}}}
                """);

        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        assertFalse(body.path("outcome").asText().equals("SELECTED"), response.body());
        assertTrue(body.has("backend") && body.path("backend").isNull(), response.body());
        body.path("phases").forEach(phase -> assertFalse(phase.path("phase").asText().startsWith("backend/"), response.body()));
    }

    @Test
    void aRequestOutsideTheSchemaIsRefusedWithItsLocation() {
        var response = client.postJson(PATH, """
                {"interface": {"path": "cap.interface.database.postgresql.install"}, "typeRefs": []}
                """);

        assertEquals(400, response.status(), response.body());
        assertTrue(response.body().contains("typeRefs"), response.body());
    }

    private static JsonNode withoutEnvelope(JsonNode decision) {
        ObjectNode result = decision.deepCopy();
        result.remove(Envelope.FIELDS);
        return result;
    }

    private static JsonNode read(String json) {
        try {
            return Documents.jsonMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
