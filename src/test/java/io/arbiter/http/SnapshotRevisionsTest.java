package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every decision names the catalog and TypeInstance store it was decided with, as /readyz and /v1/status name the
 * live ones, and the logged record keeps both: what reproducing a decision needs besides its request.
 */
class SnapshotRevisionsTest {

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }


    @Test
    void everyDecisionAndTheRecentIndexNameTheLiveRevisions() {
        JsonNode ready = client.get("/readyz").json();
        String catalog = ready.path("catalogRevision").asText();
        String store = ready.path("typeInstancesRevision").asText();
        assertEquals(16, catalog.length(), ready.toString());
        assertEquals(16, store.length(), ready.toString());
        JsonNode status = client.get("/v1/status").json();
        assertEquals(catalog, status.path("catalogRevision").asText());
        assertEquals(store, status.path("typeInstancesRevision").asText());

        Map<String, String> requests = Map.of(
                "implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}",
                "backend", "{\"typeRefs\": [{\"path\": \"cap.type.x\"}]}",
                "dependencies", "{\"policies\": [{\"name\": \"p\", \"namespace\": \"ns\"}]}",
                "rollout", "{\"decisionGroups\": [{\"groupIndex\": 0, \"clusters\": [\"c1\"]}], \"clusters\": []}");
        requests.forEach((target, body) -> {
            HttpTestClient.Response response = client.postJson("/v1/decisions/" + target, body);
            assertEquals(200, response.status(), target + ": " + response.body());
            JsonNode decision = response.json();
            assertEquals(catalog, decision.path("catalogRevision").asText(), target);
            assertEquals(store, decision.path("typeInstancesRevision").asText(), target);

            JsonNode logged = client.get("/v1/decisions/" + decision.path("decisionId").asText()).json();
            assertEquals(catalog, logged.path("result").path("catalogRevision").asText(), target + " logged: " + logged);
            assertEquals(store, logged.path("result").path("typeInstancesRevision").asText(), target + " logged");
        });
    }
}
