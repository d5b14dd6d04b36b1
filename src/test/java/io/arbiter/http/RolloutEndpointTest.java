package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/decisions/rollout over real HTTP (issue 8, Contract; docs/api.md). */
class RolloutEndpointTest {

    private static final String PATH = "/v1/decisions/rollout";
    private static final String GROUPS = """
            "decisionGroups": [{"groupName": "canary", "groupIndex": 0, "clusters": ["c1", "c2"]},
                               {"groupIndex": 1, "clusters": ["c3", "c4"]}],
            "now": "2026-01-01T00:10:00Z"
            """;

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }


    @Test
    void aProgressiveRolloutWithTheContractFields() {
        var response = client.postJson(PATH, """
                {"remediationAction": "enforce",
                 "strategy": {"type": "Progressive", "progressive": {"maxConcurrency": 2, "progressDeadline": "90s"}},
                 "clusters": [{"name": "c1", "status": "Succeeded", "lastTransitionTime": "2026-01-01T00:09:00Z"},
                              {"name": "c2", "status": "Progressing", "lastTransitionTime": "2026-01-01T00:09:00Z"},
                              {"name": "c9", "status": "Progressing"}],
                """ + GROUPS + "}");

        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        assertFalse(body.path("decisionId").asText().isEmpty());
        assertEquals("c2", body.path("toRollout").get(0).path("cluster").asText(), response.body());
        assertEquals("Progressing", body.path("toRollout").get(0).path("status").asText());
        assertEquals("enforce", body.path("toRollout").get(0).path("remediationAction").asText());
        assertEquals("c3", body.path("toRollout").get(1).path("cluster").asText());
        assertEquals(1, body.path("toRollout").get(1).path("groupIndex").asInt());
        assertEquals("ToApply", body.path("toRollout").get(1).path("status").asText());
        assertEquals(2, body.path("toRollout").size());
        assertTrue(body.path("timedOut").isArray() && body.path("timedOut").isEmpty(), response.body());
        assertEquals("c9", body.path("removed").get(0).path("cluster").asText());
        assertFalse(body.path("maxFailureBreach").asBoolean());
        assertEquals(30, body.path("recheckAfterSeconds").asInt(), "c2's deadline is 90 s after 00:09:00");
        assertEquals("Progressing", body.path("aggregatedStatus").asText());
        JsonNode c4 = body.path("clusterStatuses").get(3);
        assertEquals("c4", c4.path("cluster").asText());
        assertEquals("ToApply", c4.path("rolloutStatus").asText());
        assertEquals("inform", c4.path("remediationAction").asText());
        assertTrue(body.path("firedRules").toString().contains("Progressive walks the records by name"),
                response.body());
    }

    @Test
    void recheckAfterIsNullWithoutAnythingToWaitFor() {
        var response = client.postJson(PATH, "{" + GROUPS + "}");
        assertEquals(200, response.status(), response.body());
        assertTrue(response.json().has("recheckAfterSeconds") && response.json().get("recheckAfterSeconds").isNull(), response.body());
        assertEquals(4, response.json().path("toRollout").size(), "the default strategy is All");
    }

    @Test
    void anInvalidDeadlineIs400AtItsField() {
        var response = client.postJson(PATH, """
                {"strategy": {"type": "ProgressivePerGroup", "progressivePerGroup": {"progressDeadline": "2d"}},
                """ + GROUPS + "}");
        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.body().contains("$.strategy.progressivePerGroup.progressDeadline"), response.body());
    }

    @Test
    void anInvalidPercentageAndAnUnknownTypeAre400AtTheirFields() {
        var percentage = client.postJson(PATH, """
                {"strategy": {"type": "Progressive", "progressive": {"maxFailures": "ten%"}},
                """ + GROUPS + "}");
        assertEquals(400, percentage.status(), percentage.body());
        assertTrue(percentage.body().contains("$.strategy.progressive.maxFailures"), percentage.body());

        var type = client.postJson(PATH, "{\"strategy\": {\"type\": \"Canary\"}, " + GROUPS + "}");
        assertEquals(400, type.status(), type.body());
        assertTrue(type.body().contains("$.strategy.type"), type.body());
    }

    @Test
    void anUnknownStatusIs400AtItsField() {
        var response = client.postJson(PATH, """
                {"clusters": [{"name": "c1", "status": "Weird"}],
                """ + GROUPS + "}");
        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.body().contains("$.clusters[0].status"), response.body());
        assertFalse(response.body().contains("toRollout"), response.body());
    }

    @Test
    void theTypeIsListed() {
        var response = client.get("/v1/policy-types/ocm.rollout");
        assertEquals(200, response.status(), response.body());
        assertEquals("POST /v1/decisions/rollout", response.json().path("targets").get(0).path("endpoint").asText(), response.body());
    }
}
