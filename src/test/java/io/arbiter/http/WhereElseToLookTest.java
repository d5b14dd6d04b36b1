package io.arbiter.http;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 45: a 404 or 405 a new user meets says what to do next, not only what is missing. */
class WhereElseToLookTest {

    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        client = new HttpTestClient(TestServers.shared().port());
    }

    @Test
    void getOnADecisionTargetNamesTheTargetAndItsMethod() {
        HttpTestClient.Response response = client.get("/v1/decisions/implementation");
        assertEquals(405, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertEquals("POST", response.header("Allow"));
        assertTrue(response.body().contains("'implementation' is a decision target: POST the request to "
                + "/v1/decisions/implementation to decide it"), response.body());
        assertTrue(!response.body().contains("no recent decision"), response.body());
    }

    @Test
    void aDecisionNoLongerIndexedPointsAtTheDecisionLog() {
        HttpTestClient.Response response = client.get("/v1/decisions/3f2a0000-0000-0000-0000-000000000000");
        assertEquals(404, response.status(), response.body());
        assertEquals("NOT_FOUND", response.errorCode());
        assertTrue(response.body().contains("arbiter audit --id 3f2a0000-0000-0000-0000-000000000000"), response.body());
    }

    @Test
    void aLogThatIsOffHasTheHealthTheDocsGive() throws Exception {
        var log = client.get("/v1/status").json().path("decisionLog");
        assertEquals("OFF", log.path("mode").asText(), log.toString());
        assertEquals(false, log.path("writerAlive").asBoolean(true), log.toString());
        assertEquals(true, log.path("writable").asBoolean(false), log.toString());
        for (String count : java.util.List.of("written", "dropped", "failed")) {
            assertEquals(0, log.path(count).asLong(-1), log.toString());
        }
        assertTrue(log.path("lastError").isNull() && log.path("lastErrorAt").isNull(), log.toString());
        String docs = java.nio.file.Files.readString(java.nio.file.Path.of("docs/api.md"));
        assertTrue(docs.contains("`OFF` (no log: `writerAlive` is then `false`, the counts `0`, `lastError` and "
                + "`lastErrorAt` `null`, and `writable` `true`, since no write can fail)"), "docs/api.md says otherwise");
    }
}
