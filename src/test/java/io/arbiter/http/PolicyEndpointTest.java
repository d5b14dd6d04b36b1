package io.arbiter.http;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET/PUT /v1/policy and POST /v1/policy/validate, with and without an admin token. */
class PolicyEndpointTest {

    private static final String TOKEN = "s3cret";
    private static final String VALID = "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}";

    private static ArbiterServer secured;
    private static ArbiterServer open;
    private static HttpTestClient client;
    private static HttpTestClient noTokenClient;

    @BeforeAll
    static void start() throws Exception {
        secured = TestServers.embedded(TOKEN);
        open = TestServers.embedded(null);
        client = new HttpTestClient(secured.port());
        noTokenClient = new HttpTestClient(open.port());
    }

    @AfterAll
    static void stop() {
        secured.stop();
        open.stop();
    }

    private static HttpTestClient.Response put(String yaml, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Authorization";
        all[1] = "Bearer " + TOKEN;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return client.send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(), all);
    }

    @Test
    void getReturnsThePolicyWithItsRevisionAsETag() {
        var json = client.get("/v1/policy");
        var yaml = client.get("/v1/policy", "Accept", "application/yaml");

        assertEquals(200, json.status());
        assertTrue(json.json().has("interface"), json.body());
        assertTrue(json.header("ETag").startsWith("\""));
        assertTrue(yaml.header("Content-Type").contains("yaml"));
        assertTrue(yaml.body().contains("rules:"), yaml.body());
    }

    @Test
    void putReplacesThePolicyAndChangesTheETag() {
        String before = client.get("/v1/policy").header("ETag");

        var response = put(VALID + "\n# changed " + System.nanoTime() + "\n");
        var changed = put("interface: {rules: [{interface: {path: cap.interface.x}, oneOf: []}]}");

        assertEquals(200, response.status(), response.body());
        assertEquals(200, changed.status(), changed.body());
        String after = client.get("/v1/policy").header("ETag");
        assertNotEquals(before, after);
        assertEquals(changed.header("ETag"), after);
        assertTrue(client.get("/v1/policy").body().contains("cap.interface.x"));
    }

    @Test
    void invalidPolicyIs422AndTheLivePolicyIsUnchanged() {
        put(VALID);
        String before = client.get("/v1/policy").body();

        var response = put("interface: {rules: [{interface: {path: cap.*}, oneOf: [], unknown: 1}]}");

        assertEquals(422, response.status());
        assertEquals("INVALID_POLICY", response.errorCode());
        assertEquals("$.interface.rules[0].unknown", response.json().path("error").path("details").get(0).path("path").asText());
        assertEquals(1, response.json().path("error").path("details").get(0).path("line").asInt());
        assertEquals(before, client.get("/v1/policy").body());
    }

    @Test
    void idsTheStoreCannotResolveAreWarningsNotErrors() {
        var response = put("""
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf:
                        - implementationConstraints: {}
                          inject:
                            requiredTypeInstances: [{id: 00000000-0000-0000-0000-000000000000}]
                """);

        assertEquals(200, response.status(), response.body());
        assertTrue(response.json().path("warnings").get(0).asText().contains(
                "TypeInstance 00000000-0000-0000-0000-000000000000 (interface.rules[0].oneOf[0].inject.requiredTypeInstances[0].id)"),
                response.body());
        String warning = response.json().path("warnings").get(0).asText();
        // What really happens: a requirement it could satisfy stays unmet (NO_MATCH, explained), not a 422 for every use.
        assertTrue(warning.contains("NO_MATCH") && warning.contains("unknown to the store"), warning);
        assertFalse(warning.contains("answers 422 unless"), warning);
        put(VALID);
    }

    @Test
    void aBackendThatIsNotAHubStorageIsAPolicyProblem() {
        String notStorage = """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: 517cf827-233c-4bf1-8fc9-48534424dd58}
                """;
        String storage = notStorage.replace("517cf827-233c-4bf1-8fc9-48534424dd58", "c268d3f5-8834-434b-bea2-b677793611c5");

        var refused = put(notStorage);
        var validation = client.send("POST", "/v1/policy/validate", "application/yaml", notStorage.getBytes());
        var accepted = put(storage);

        assertEquals(422, refused.status(), refused.body());
        assertTrue(refused.body().contains("is not a Hub storage"), refused.body());
        assertEquals("$.typeInstance.rules[0].backend.id", refused.json().path("error").path("details").get(0).path("path").asText());
        assertFalse(validation.json().path("valid").asBoolean(), validation.body());
        assertEquals(200, accepted.status(), accepted.body());
        put(VALID);
    }

    @Test
    void staleIfMatchIs412() {
        put(VALID);
        String etag = client.get("/v1/policy").header("ETag");

        var fresh = put(VALID, "If-Match", etag);
        var stale = put("interface: {rules: []}", "If-Match", "\"0000000000000000\"");

        assertEquals(200, fresh.status(), fresh.body());
        assertEquals(412, stale.status());
        assertEquals("POLICY_CONFLICT", stale.errorCode());
    }

    @Test
    void missingOrWrongTokenIs401() {
        var missing = client.send("PUT", "/v1/policy", "application/yaml", VALID.getBytes());
        var wrong = client.send("PUT", "/v1/policy", "application/yaml", VALID.getBytes(), "Authorization", "Bearer nope");

        assertEquals(401, missing.status());
        assertEquals(401, wrong.status());
        assertEquals("UNAUTHORIZED", wrong.errorCode());
    }

    /** A Secret made with kubectl create secret --from-file holds the token's final newline; no client sends it. */
    @Test
    void aConfiguredTokenEndingInANewlineMatchesTheTokenAClientSends() throws Exception {
        ArbiterServer fromFile = TestServers.embedded(TOKEN + "\n");
        try {
            var put = new HttpTestClient(fromFile.port()).send("PUT", "/v1/policy", "application/yaml", VALID.getBytes(),
                    "Authorization", "Bearer " + TOKEN);

            assertEquals(200, put.status(), put.body());
        } finally {
            fromFile.stop();
        }
    }

    @Test
    void withoutAConfiguredTokenPutIs403() {
        var response = noTokenClient.send("PUT", "/v1/policy", "application/yaml", VALID.getBytes(),
                "Authorization", "Bearer anything");

        assertEquals(403, response.status());
        assertTrue(response.body().contains("ARBITER_ADMIN_TOKEN"), response.body());
    }

    @Test
    void validateReportsEveryProblemWithoutApplying() {
        String before = client.get("/v1/policy").body();

        var invalid = client.send("POST", "/v1/policy/validate", "application/yaml",
                "interface:\n  rules:\n    - interface: {path: nope}\n      oneOf: []\n      x: 1\n".getBytes());
        var valid = client.send("POST", "/v1/policy/validate", "application/yaml", VALID.getBytes());

        assertEquals(200, invalid.status());
        assertFalse(invalid.json().path("valid").asBoolean());
        assertEquals(2, invalid.json().path("problems").size(), invalid.body());
        assertTrue(valid.json().path("valid").asBoolean());
        assertEquals(before, client.get("/v1/policy").body());
    }

    @Test
    void validateChecksThePolicyAgainstTheCatalogAndGivesErrorsAndWarningsTogether() {
        String policy = """
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: not-in-the-store}]
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints: {path: cap.implementation.aws.rds.postgresql.install}
                          inject:
                            requiredTypeInstances: [{id: 517cf827-233c-4bf1-8fc9-48534424dd58}]
                            additionalParameters: [{name: additional-parameters, value: {region: 42}}]
                """;

        var validation = client.send("POST", "/v1/policy/validate", "application/yaml", policy.getBytes());
        var badRole = client.send("POST", "/v1/policy/validate?as=boss", "application/yaml", policy.getBytes());

        assertEquals(200, validation.status(), validation.body());
        assertFalse(validation.json().path("valid").asBoolean(true), validation.body());
        var problems = validation.json().path("problems");
        assertEquals(2, problems.size(), validation.body());
        assertEquals("warning", problems.get(0).path("severity").asText());
        assertEquals("unknown-typeinstance", problems.get(0).path("code").asText());
        assertEquals(4, problems.get(0).path("line").asInt());
        assertEquals("error", problems.get(1).path("severity").asText());
        assertEquals("decision-refuses", problems.get(1).path("code").asText());
        assertEquals("$.interface.rules[0].oneOf[0].inject.additionalParameters[0]", problems.get(1).path("path").asText());
        assertEquals(11, problems.get(1).path("line").asInt());
        assertEquals(1, validation.json().path("warnings").size(), validation.body());
        assertEquals(400, badRole.status(), badRole.body());
    }
}
