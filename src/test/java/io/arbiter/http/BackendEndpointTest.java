package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/decisions/backend over real HTTP (decision-api.md; policy-syntax sections 5, 6 and 7). */
class BackendEndpointTest {

    private static final String TOKEN = "test-admin-token";
    private static final String PATH = "/v1/decisions/backend";
    private static final String AWS_SECRET_MANAGER = "31bb8355-10d7-49ce-a739-4554d8a40b63";
    private static final String VAULT = "00fd161c-01bd-47a6-9872-47490e11f996";
    private static final String HELM_STORAGE = "c268d3f5-8834-434b-bea2-b677793611c5";
    private static final String ACTION_BACKEND = "5a4d9a4e-52a4-4a3c-9b3e-7c1d2f3e4a5b";

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.embedded(TOKEN);
        client = new HttpTestClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    /** Seed 001's four typeInstance rule forms, plus a Helm pattern with a description. */
    @BeforeEach
    void globalPolicy() {
        usePolicy("""
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.auth.credentials, revision: 0.1.0}
                      backend: {id: %1$s, description: AWS Secret Manager}
                    - typeRef: {path: cap.type.aws.auth.credentials}
                      backend: {id: %2$s, description: Vault}
                    - typeRef: {path: cap.type.aws.*, revision: 0.1.0}
                      backend: {id: %1$s, description: AWS Secret Manager}
                    - typeRef: {path: cap.type.aws.*}
                      backend: {id: %2$s}
                    - typeRef: {path: cap.type.helm.*}
                      backend: {id: %3$s, description: Helm release storage}
                """.formatted(AWS_SECRET_MANAGER, VAULT, HELM_STORAGE));
    }

    private static void usePolicy(String yaml) {
        var response = client.send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(), "Authorization", "Bearer " + TOKEN);
        assertEquals(200, response.status(), response.body());
    }

    private static List<String> paths(JsonNode backends) {
        List<String> paths = new ArrayList<>();
        backends.forEach(b -> paths.add(b.path("typeRef").path("path").asText() + ":" + b.path("typeRef").path("revision").asText("")));
        return paths;
    }

    @Test
    void batchAnswersInRequestOrderWithTheContractFields() {
        var response = client.postJson(PATH, """
                {"typeRefs": [
                  {"path": "cap.type.helm.release.storage", "revision": "0.1.0"},
                  {"path": "cap.type.aws.auth.credentials", "revision": "0.1.0"},
                  {"path": "x.y"},
                  {"path": "cap.type.aws.auth.credentials", "revision": "0.2.0"},
                  {"path": "cap.type.aws.rds.instance", "revision": "0.1.0"},
                  {"path": "cap.type.aws.rds.instance", "revision": "0.2.0"}
                ]}
                """);

        assertEquals(200, response.status(), response.body());
        JsonNode decision = response.json();
        assertTrue(decision.path("decisionId").asText().matches("[0-9a-f-]{36}"), response.body());
        JsonNode backends = decision.path("backends");
        assertEquals(List.of("cap.type.helm.release.storage:0.1.0", "cap.type.aws.auth.credentials:0.1.0", "x.y:",
                "cap.type.aws.auth.credentials:0.2.0", "cap.type.aws.rds.instance:0.1.0", "cap.type.aws.rds.instance:0.2.0"),
                paths(backends));
        assertEquals(List.of("PATTERN", "EXACT", "BUILTIN", "PATH", "PATTERN_REVISION", "PATTERN"),
                backends.findValuesAsText("matchedBy"));

        JsonNode helm = backends.get(0);
        assertEquals(HELM_STORAGE, helm.path("backend").path("id").asText());
        assertEquals("Helm release storage", helm.path("backend").path("description").asText());
        assertEquals("cap.type.helm.*", helm.path("ruleTypeRef").path("path").asText());
        assertTrue(helm.path("ruleTypeRef").path("revision").isMissingNode() || helm.path("ruleTypeRef").path("revision").isNull(),
                helm.toString());

        JsonNode exact = backends.get(1);
        assertEquals(AWS_SECRET_MANAGER, exact.path("backend").path("id").asText());
        assertEquals("AWS Secret Manager", exact.path("backend").path("description").asText());
        assertEquals("cap.type.aws.auth.credentials", exact.path("ruleTypeRef").path("path").asText());
        assertEquals("0.1.0", exact.path("ruleTypeRef").path("revision").asText());

        JsonNode builtin = backends.get(2);
        assertTrue(builtin.has("backend") && builtin.get("backend").isNull(), builtin.toString());
        assertTrue(builtin.has("ruleTypeRef") && builtin.get("ruleTypeRef").isNull(), builtin.toString());
        assertEquals("x.y", builtin.path("typeRef").path("path").asText());

        assertEquals(VAULT, backends.get(3).path("backend").path("id").asText());
        assertEquals("cap.type.aws.auth.credentials", backends.get(3).path("ruleTypeRef").path("path").asText());
        assertEquals("cap.type.aws.*", backends.get(4).path("ruleTypeRef").path("path").asText());
        assertEquals("0.1.0", backends.get(4).path("ruleTypeRef").path("revision").asText());
        assertEquals(VAULT, backends.get(5).path("backend").path("id").asText());
        assertFalse(backends.get(5).path("backend").has("description"), backends.get(5).toString());
    }

    @Test
    void actionPolicyOverridesTheGlobalRuleForTheSameTypeRef() {
        var response = client.postJson(PATH, """
                {"typeRefs": [{"path": "cap.type.aws.auth.credentials", "revision": "0.1.0"},
                              {"path": "cap.type.aws.auth.credentials", "revision": "0.2.0"}],
                 "actionPolicy": {"typeInstance": {"rules": [
                   {"typeRef": {"path": "cap.type.aws.auth.credentials", "revision": "0.1.0"},
                    "backend": {"id": "%s", "description": "Action backend"}}]}}}
                """.formatted(ACTION_BACKEND));

        assertEquals(200, response.status(), response.body());
        JsonNode backends = response.json().path("backends");
        assertEquals(ACTION_BACKEND, backends.get(0).path("backend").path("id").asText());
        assertEquals("Action backend", backends.get(0).path("backend").path("description").asText());
        assertEquals("EXACT", backends.get(0).path("matchedBy").asText());
        // other typeRefs keep the global rules
        assertEquals("PATH", backends.get(1).path("matchedBy").asText());
        assertEquals(VAULT, backends.get(1).path("backend").path("id").asText());
        assertTrue(response.json().path("firedRules").toString()
                .contains("A higher policy's backend rule replaces a lower one for the same typeRef"), response.body());
    }

    @Test
    void withoutGlobalRulesEveryTypeIsBuiltIn() {
        usePolicy("interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}");

        var response = client.postJson(PATH, "{\"typeRefs\": [{\"path\": \"cap.type.aws.auth.credentials\", \"revision\": \"0.1.0\"}]}");

        assertEquals(200, response.status(), response.body());
        assertEquals("BUILTIN", response.json().path("backends").get(0).path("matchedBy").asText());
    }

    @Test
    void bodyWithoutTypeRefsIs400() {
        var response = client.postJson(PATH, "{\"actionPolicy\": {}}");

        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.body().contains("typeRefs"), response.body());
    }

    @Test
    void unknownFieldIs400() {
        var response = client.postJson(PATH, "{\"typeRefs\": [{\"path\": \"cap.type.x\"}], \"typeRefz\": []}");

        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.body().contains("typeRefz"), response.body());
    }

    @Test
    void invalidActionPolicyIs422LocatedUnderActionPolicy() {
        var response = client.postJson(PATH, """
                {"typeRefs": [{"path": "cap.type.aws.auth.credentials", "revision": "0.1.0"}],
                 "actionPolicy": {"typeInstance": {"rules": [
                   {"typeRef": {"path": "cap.type.aws.auth.credentials"}, "backend": {"id": "%s"}, "colour": "red"}]}}}
                """.formatted(ACTION_BACKEND));

        assertEquals(422, response.status(), response.body());
        assertEquals("INVALID_POLICY", response.errorCode());
        assertEquals("$.actionPolicy.typeInstance.rules[0].colour",
                response.json().path("error").path("details").get(0).path("path").asText(), response.body());
    }

    @Test
    void theTypeIsListed() {
        var response = client.get("/v1/policy-types/capact.backend");

        assertEquals(200, response.status(), response.body());
        JsonNode type = response.json();
        assertEquals("capact.backend", type.path("name").asText());
        assertEquals("POST /v1/decisions/backend", type.path("targets").get(0).path("endpoint").asText(), response.body());
        assertTrue(client.get("/v1/policy-types").body().contains("capact.backend"));
    }
}
