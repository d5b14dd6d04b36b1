package io.arbiter.http;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/impact and PUT /v1/policy?dryRun=true: the impact of a candidate policy, nothing applied, nothing logged. */
class ImpactEndpointTest {

    private static final String TOKEN = "s3cret";
    private static final String DENY_POSTGRES = """
            interface:
              default:
                inject:
                  requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
              rules:
                - interface: {path: cap.interface.database.postgresql.install}
                  oneOf: []
                - interface: {path: cap.*}
                  oneOf: [{implementationConstraints: {}}]
            """;

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(TOKEN);
        client = new HttpTestClient(server.port());
        for (int i = 0; i < 3; i++) {
            var decided = client.send("POST", "/v1/decisions/implementation", "application/json",
                    "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}".getBytes());
            assertEquals(200, decided.status(), decided.body());
        }
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static HttpTestClient.Response send(String method, String path, String policy) {
        return client.send(method, path, "application/yaml", policy.getBytes(), "Authorization", "Bearer " + TOKEN);
    }

    @Test
    void impactComparesTheSweepAndTheRecentDecisionsUnderTheCandidate() {
        int recent = server.decisions().audit().recentDecisions().size();
        var catalog = server.decisions().snapshot().catalog();
        int sweep = catalog.interfaces().size() + catalog.typeRefs().size();

        var response = send("POST", "/v1/impact", DENY_POSTGRES);

        assertEquals(200, response.status(), response.body());
        assertEquals(sweep + recent, response.json().path("decisions").asInt(), response.body());
        assertEquals(1 + 3, response.json().path("changed").asInt(), "the swept Interface and the three logged decisions");
        assertEquals(3, response.json().path("bySource").path("replay").path("changed").asInt(), response.body());
        assertEquals("DENIED", response.json().path("changes").path(0).path("outcomeAfter").asText(), response.body());
        assertEquals(recent, server.decisions().audit().recentDecisions().size(), "what impact decides is not logged");
    }

    @Test
    void queryParametersChooseWhatIsComparedAndAreChecked() {
        var sweepOnly = send("POST", "/v1/impact?recent=false&limit=0", DENY_POSTGRES);
        var notABoolean = send("POST", "/v1/impact?sweep=maybe", DENY_POSTGRES);
        var notANumber = send("POST", "/v1/impact?limit=99999999999", DENY_POSTGRES);
        var tooMany = send("POST", "/v1/impact?limit=10001", DENY_POSTGRES);
        var nothing = send("POST", "/v1/impact?sweep=false&recent=false", DENY_POSTGRES);

        assertEquals(200, sweepOnly.status(), sweepOnly.body());
        assertTrue(sweepOnly.json().path("bySource").path("replay").isMissingNode(), sweepOnly.body());
        assertEquals(0, sweepOnly.json().path("changes").size());
        assertEquals(1, sweepOnly.json().path("changed").asInt(), sweepOnly.body());
        assertEquals(1 + sweepOnly.json().path("refired").asInt(), sweepOnly.json().path("changesOmitted").asInt(), sweepOnly.body());
        for (var refused : java.util.List.of(notABoolean, notANumber, tooMany, nothing)) {
            assertEquals(400, refused.status(), refused.body());
            assertEquals("INVALID_REQUEST", refused.errorCode());
        }
    }

    @Test
    void dryRunAnswersTheImpactAndLeavesTheLivePolicy() {
        String before = client.get("/v1/policy").header("ETag");

        var dryRun = send("PUT", "/v1/policy?dryRun=true", DENY_POSTGRES);

        assertEquals(200, dryRun.status(), dryRun.body());
        assertTrue(dryRun.json().path("changed").asInt() >= 1, dryRun.body());
        assertEquals(before, client.get("/v1/policy").header("ETag"), "a dry run applies nothing");
    }

    @Test
    void anInvalidPolicyIs422AndNoTokenIs401() {
        var invalid = send("POST", "/v1/impact", "interface: {rules: [{interface: {path: cap.*}, oneOf: [], x: 1}]}");
        var invalidDryRun = send("PUT", "/v1/policy?dryRun=true", "interface: {rules: 7}");
        var anonymous = client.send("POST", "/v1/impact", "application/yaml", DENY_POSTGRES.getBytes());

        assertEquals(422, invalid.status(), invalid.body());
        assertEquals("$.interface.rules[0].x", invalid.json().path("error").path("details").path(0).path("path").asText());
        assertEquals(422, invalidDryRun.status(), invalidDryRun.body());
        assertEquals(401, anonymous.status());
    }

    @Test
    void hostileBodiesAreLocated422s() {
        byte[] invalidUtf8 = {'i', 'n', 't', 'e', 'r', 'f', 'a', 'c', 'e', ':', ' ', (byte) 0xC3, (byte) 0x28};
        byte[] deep = ("interface: " + "[".repeat(200) + "]".repeat(200)).getBytes();
        byte[] huge = ("interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}], x: "
                + "9".repeat(5_000) + "}").getBytes();
        for (byte[] body : java.util.List.of(invalidUtf8, deep, huge)) {
            var response = client.send("POST", "/v1/impact", "application/yaml", body, "Authorization", "Bearer " + TOKEN);
            assertEquals(422, response.status(), response.body());
            assertEquals("INVALID_POLICY", response.errorCode());
            assertTrue(response.json().path("error").path("details").path(0).has("path"), response.body());
        }
    }
}
