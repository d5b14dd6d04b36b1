package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/decisions/implementation over real HTTP: every outcome and every error status of the contract. */
class ImplementationEndpointTest {

    private static final String TOKEN = "test-admin-token";
    private static final String PATH = "/v1/decisions/implementation";
    private static final String POSTGRES = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\", \"revision\": \"0.1.0\"}}";

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

    @BeforeEach
    void embeddedPolicy() {
        usePolicy("""
                interface:
                  default:
                    inject:
                      requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
                  rules:
                    - interface: {path: cap.*}
                      oneOf:
                        - implementationConstraints:
                            requires: [{path: cap.core.type.platform.kubernetes}]
                        - implementationConstraints: {}
                """);
    }

    private static void usePolicy(String yaml) {
        var response = client.send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(), "Authorization", "Bearer " + TOKEN);
        assertEquals(200, response.status(), response.body());
    }

    @Test
    void aRepeatedRequestIsAnsweredAsTheFirstWasWithItsOwnIdAndRecord() {
        var first = client.postJson(PATH, POSTGRES);
        var repeat = client.postJson(PATH, POSTGRES);

        assertEquals(200, repeat.status(), repeat.body());
        JsonNode a = first.json();
        JsonNode b = repeat.json();
        assertNotEquals(a.path("decisionId"), b.path("decisionId"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) a).remove("decisionId");
        ((com.fasterxml.jackson.databind.node.ObjectNode) b).remove("decisionId");
        assertEquals(a, b);
        assertTrue(b.path("firedRules").size() > 0, b.toString());
        var logged = client.get("/v1/decisions/" + repeat.json().path("decisionId").asText());
        assertEquals(200, logged.status(), logged.body());
        assertEquals("SELECTED", logged.json().path("outcome").asText(), logged.body());
    }

    @Test
    void selected() {
        var response = client.postJson(PATH, POSTGRES);

        assertEquals(200, response.status(), response.body());
        JsonNode decision = response.json();
        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals("cap.implementation.bitnami.postgresql.install", decision.path("selected").path("path").asText());
        assertEquals("cap.*", decision.path("rule").path("interface").path("path").asText());
        assertEquals(0, decision.path("rule").path("oneOfIndex").asInt());
        assertTrue(decision.path("decisionId").asText().matches("[0-9a-f-]{36}"));
        assertTrue(decision.path("inject").path("requiredTypeInstances").isArray());
        assertTrue(decision.path("firedRules").isArray());
        assertEquals("helm-storage", decision.path("backends").get(0).path("alias").asText(), decision.toString());
        assertEquals("c268d3f5-8834-434b-bea2-b677793611c5", decision.path("backends").get(0).path("id").asText());
        assertEquals("DEFAULT_INJECT", decision.path("backends").get(0).path("source").asText());
        // An Interface-only decision is decided by the rules like any other: its firings are inline.
        JsonNode fired = decision.path("firedRules");
        assertTrue(fired.size() > 0, decision.toString());
        assertEquals(1, fired.get(0).path("order").asInt());
        assertTrue(fired.get(0).path("rule").asText().startsWith("io.arbiter.rules."));
        assertTrue(fired.get(0).path("facts").isArray());
    }

    @Test
    void aRequestWithAPolicyFiresItsRulesInline() {
        var response = client.postJson(PATH, "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\","
                + " \"revision\": \"0.1.0\"}, \"actionPolicy\": {\"interface\": {\"rules\": []}}}");

        assertEquals(200, response.status(), response.body());
        JsonNode decision = response.json();
        assertEquals(1, decision.path("firedRules").get(0).path("order").asInt());
        assertTrue(decision.path("firedRules").get(0).path("rule").asText().startsWith("io.arbiter.rules."));
        java.util.List<String> fields = new java.util.ArrayList<>();
        decision.path("firedRules").get(0).fieldNames().forEachRemaining(fields::add);
        assertEquals(java.util.List.of("rule", "order", "facts"), fields);
    }

    @Test
    void aRepeatedInterfaceOnlyDecisionCarriesTheSameFiringsInlineWithAFreshIdAndItsRecordKeepsThem() {
        JsonNode first = client.postJson(PATH, POSTGRES).json();
        JsonNode second = client.postJson(PATH, POSTGRES).json();

        assertTrue(!first.path("decisionId").asText().equals(second.path("decisionId").asText()));
        assertTrue(first.path("firedRules").size() > 0, first.toString());
        assertEquals(first.path("firedRules"), second.path("firedRules"));
        JsonNode logged = client.get("/v1/decisions/" + second.path("decisionId").asText()).json();
        assertEquals(second.path("firedRules"), logged.path("result").path("firedRules"));
        assertTrue(client.get("/v1/snapshots/" + second.path("snapshotRevision").asText() + "/firings").status() == 404);
    }

    @Test
    void aFiringsRuleIsListedWithItsNamePackageAndFile() {
        JsonNode decision = client.postJson(PATH, POSTGRES.replace("}}", "}, \"explain\": true}")).json();
        var rules = client.get("/v1/rules/" + decision.path("rulesRevision").asText());

        assertEquals(200, rules.status(), rules.body());
        java.util.Map<String, JsonNode> byRule = new java.util.HashMap<>();
        rules.json().path("rules").forEach(rule -> byRule.put(rule.path("rule").asText(), rule));
        for (JsonNode fired : decision.path("firedRules")) {
            JsonNode rule = byRule.get(fired.path("rule").asText());
            assertTrue(rule != null, fired + " is listed");
            assertEquals(fired.path("rule").asText(), rule.path("package").asText() + "." + rule.path("name").asText());
            assertTrue(rule.path("file").asText().matches("(rules|decision-tables)/(implementation|policy-merge)/.+"), rule.toString());
        }
        assertTrue(byRule.containsKey("io.arbiter.rules.merge.Global policy"), byRule.keySet().toString());
        assertEquals("decision-tables/policy-merge/policy-merge-order.drl.csv",
                byRule.get("io.arbiter.rules.merge.Global policy").path("file").asText());
        var unknown = client.get("/v1/rules/0000000000000000");
        assertEquals(404, unknown.status(), unknown.body());
        assertEquals("NOT_FOUND", unknown.errorCode());
    }

    @Test
    void candidatesAreSortedByPathThenRevisionDescending() {
        usePolicy("""
                interface:
                  rules:
                    - interface: {path: cap.interface.database.postgresql.install}
                      oneOf:
                        - implementationConstraints:
                            attributes: [{path: cap.attribute.cloud.provider.gcp}]
                          inject:
                            requiredTypeInstances: [{id: 9038dcdc-e959-41c4-a690-d8ebf929ac0c}]
                """);

        JsonNode decision = client.postJson(PATH, POSTGRES).json();

        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals("0.2.0", decision.path("candidates").get(0).path("revision").asText());
        assertEquals("0.1.0", decision.path("candidates").get(1).path("revision").asText());
        assertEquals(decision.path("candidates").get(0), decision.path("selected"));
    }

    @Test
    void aHubStorageInjectedByTheRuleIsReportedAsTheRulesBackend() {
        usePolicy("""
                interface:
                  rules:
                    - interface: {path: cap.interface.productivity.mattermost.install}
                      oneOf:
                        - implementationConstraints: {}
                          inject:
                            requiredTypeInstances: [{id: c268d3f5-8834-434b-bea2-b677793611c5}]
                """);

        JsonNode decision = client.postJson(PATH, "{\"interface\": {\"path\": \"cap.interface.productivity.mattermost.install\"}}").json();

        assertEquals("cap.implementation.mattermost.mattermost-team-edition.install", decision.path("selected").path("path").asText());
        assertEquals("RULE_INJECT", decision.path("backends").get(0).path("source").asText(), decision.toString());
        assertEquals("helm-storage", decision.path("backends").get(0).path("alias").asText());
    }

    @Test
    void aDecisionWithoutHubStorageHasAnEmptyBackendList() {
        usePolicy("interface: {rules: [{interface: {path: cap.interface.database.postgresql.install}, oneOf: []}]}");

        JsonNode decision = client.postJson(PATH, POSTGRES).json();

        assertTrue(decision.path("backends").isArray() && decision.path("backends").isEmpty(), decision.toString());
    }

    @Test
    void noRule() {
        usePolicy("interface: {rules: [{interface: {path: cap.interface.other}, oneOf: []}]}");

        JsonNode decision = client.postJson(PATH, POSTGRES).json();

        assertEquals("NO_RULE", decision.path("outcome").asText());
        assertTrue(decision.path("selected").isNull());
        assertEquals(0, decision.path("candidates").size());
    }

    @Test
    void denied() {
        usePolicy("interface: {rules: [{interface: {path: cap.interface.database.postgresql.install}, oneOf: []}]}");

        JsonNode decision = client.postJson(PATH, POSTGRES).json();

        assertEquals("DENIED", decision.path("outcome").asText());
        assertTrue(decision.path("selected").isNull());
    }

    @Test
    void noMatchWithExplanation() {
        usePolicy("""
                interface:
                  rules:
                    - interface: {path: cap.*}
                      oneOf:
                        - implementationConstraints:
                            attributes: [{path: cap.attribute.cloud.provider.azure}]
                """);

        JsonNode decision = client.postJson(PATH, POSTGRES.replace("}}", "}, \"explain\": true}")).json();

        assertEquals("NO_MATCH", decision.path("outcome").asText());
        assertTrue(decision.path("explanation").toString().contains("missing attribute cap.attribute.cloud.provider.azure"),
                decision.path("explanation").toString());
    }

    @Test
    void yamlRequestsAreAccepted() {
        var response = client.send("POST", PATH, "application/yaml",
                "interface:\n  path: cap.interface.database.postgresql.install\n".getBytes());

        assertEquals(200, response.status(), response.body());
        assertEquals("0.1.0", response.json().path("interface").path("revision").asText());
    }

    @Test
    void malformedJsonIs400WithLocation() {
        var response = client.postJson(PATH, "{\"interface\": {\"path\": ");

        assertEquals(400, response.status());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.json().path("error").path("details").get(0).has("line"), response.body());
    }

    @Test
    void wrongTypesAre400() {
        var response = client.postJson(PATH, "{\"interface\": {\"path\": 42}, \"explain\": \"yes\"}");

        assertEquals(400, response.status());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertEquals(2, response.json().path("error").path("details").size(), response.body());
    }

    @Test
    void interfacePathMustBeCapPrefixed() {
        var response = client.postJson(PATH, "{\"interface\": {\"path\": \"interface.database.postgresql.install\"}}");

        assertEquals(400, response.status());
        assertEquals("$.interface.path", response.json().path("error").path("details").get(0).path("path").asText());
    }

    @Test
    void unknownRequestFieldIs400() {
        var response = client.postJson(PATH, "{\"interface\": {\"path\": \"cap.interface.x\"}, \"explian\": true}");

        assertEquals(400, response.status());
        assertTrue(response.body().contains("explian"), response.body());
    }

    /** A parameter's value is free-form JSON, and JSON allows an empty key; a field name of the policy may not be empty. */
    @Test
    void anEmptyKeyIsTakenInAParameterValueAndRefusedWhereAFieldNameGoes() {
        String request = """
                {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
                 "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
                   "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"},
                              "inject": {"additionalParameters": [{"name": "additional-parameters", "value": {"": 1}}]%s}}]}]}}}
                """;

        var taken = client.postJson(PATH, request.formatted(""));
        var refused = client.postJson(PATH, request.formatted(", \"\": []"));

        assertEquals(200, taken.status(), taken.body());
        assertEquals(1, taken.json().path("inject").path("additionalParameters").get(0).path("value").path("").asInt(), taken.body());
        assertEquals(422, refused.status(), refused.body());
        assertEquals("$.actionPolicy.interface.rules[0].oneOf[0].inject['']",
                refused.json().path("error").path("details").get(0).path("path").asText(), refused.body());
    }

    @Test
    void invalidActionPolicyIs422LocatedUnderActionPolicy() {
        var response = client.postJson(PATH, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.*"}, "oneOf": [], "colour": "red"}]}}}
                """);

        assertEquals(422, response.status());
        assertEquals("INVALID_POLICY", response.errorCode());
        assertEquals("$.actionPolicy.interface.rules[0].colour",
                response.json().path("error").path("details").get(0).path("path").asText(), response.body());
    }

    @Test
    void bodyOverOneMebibyteIs413() {
        byte[] body = new byte[ServerOptions.MAX_BODY_BYTES + 1];
        Arrays.fill(body, (byte) ' ');

        var response = client.send("POST", PATH, "application/json", body);

        assertEquals(413, response.status());
        assertEquals("PAYLOAD_TOO_LARGE", response.errorCode());
    }

    @Test
    void yamlAliasBombIs400() {
        String bomb = """
                a: &a ["x","x","x","x","x","x","x","x","x"]
                b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
                c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
                interface: {path: cap.interface.x}
                """;
        var response = client.send("POST", PATH, "application/yaml", bomb.getBytes());

        assertEquals(400, response.status());
        assertTrue(response.json().path("error").path("message").asText().contains("alias"), response.body());
    }

    @Test
    void unknownRouteIs404WithErrorBody() {
        var response = client.get("/v1/nothing-here");

        assertEquals(404, response.status());
        assertEquals("NOT_FOUND", response.errorCode());
    }

    @Test
    void anUnknownDecisionTargetIs404NamingTheKnownTargets() {
        var response = client.postJson("/v1/decisions/no-such-target", POSTGRES);

        assertEquals(404, response.status(), response.body());
        assertEquals("NOT_FOUND", response.errorCode());
        String message = response.json().path("error").path("message").asText();
        assertTrue(message.contains("'no-such-target'"), message);
        for (String known : new String[] {"implementation", "backend", "dependencies", "rollout"}) {
            assertTrue(message.contains(known), message);
        }
    }

    @Test
    void aRecentDecisionCanBeFetchedByItsId() {
        JsonNode decision = client.postJson(PATH, POSTGRES).json();
        String id = decision.path("decisionId").asText();

        var found = client.get("/v1/decisions/" + id);
        var missing = client.get("/v1/decisions/00000000-0000-0000-0000-000000000000");

        assertEquals(200, found.status(), found.body());
        assertEquals(id, found.json().path("decisionId").asText());
        assertEquals("SELECTED", found.json().path("outcome").asText());
        assertEquals(decision.path("firedRules"), found.json().path("result").path("firedRules"));
        assertEquals(404, missing.status());
        assertEquals("NOT_FOUND", missing.errorCode());
    }

    @Test
    void metricsArePrometheusText() {
        // rules firing at request time are counted (an Interface-only decision's fired with the snapshot)
        client.postJson(PATH, POSTGRES.replace("}}", "}, \"explain\": true}"));
        client.postJson(PATH, "{");

        var metrics = client.get("/metrics");

        assertEquals(200, metrics.status());
        assertTrue(metrics.header("Content-Type").startsWith("text/plain"), metrics.header("Content-Type"));
        String body = metrics.body();
        assertTrue(body.contains("arbiter_decisions_total{endpoint=\"implementation\",outcome=\"SELECTED\"}"), body);
        assertTrue(body.contains("arbiter_decision_latency_seconds_bucket{endpoint=\"implementation\""), body);
        assertTrue(body.contains("arbiter_rule_firings_total{rule=\"io.arbiter.rules.implementation.Outcome SELECTED when a oneOf item won\"}"), body);
        assertTrue(body.contains("arbiter_http_responses_total{status=\"400\"}"), body);
        assertTrue(body.contains("arbiter_policy_reloads_total{result=\"success\"}"), body);
        assertTrue(body.contains("arbiter_decision_log_dropped"), body);
    }

    @Test
    void healthAndReadiness() {
        assertEquals(200, client.get("/healthz").status());
        var ready = client.get("/readyz");
        assertEquals(200, ready.status());
        assertNotEquals("", ready.json().path("policyRevision").asText());
    }
}
