package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /v1/decisions/dependencies over real HTTP (issue 7, Contract; docs/api.md). */
class DependenciesEndpointTest {

    private static final String PATH = "/v1/decisions/dependencies";

    private static ArbiterServer server;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.shared();
        client = new HttpTestClient(server.port());
    }


    @Test
    void pendingTemplateWithTheContractFields() {
        var response = client.postJson(PATH, """
                {"clusterNamespace": "local-cluster",
                 "policies": [{"name": "app", "namespace": "policies",
                   "dependencies": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy",
                                     "name": "setup", "compliance": "Compliant"}],
                   "policyTemplates": [{"name": "app-config", "kind": "ConfigurationPolicy", "applied": true}]}],
                 "policySets": [{"name": "all", "namespace": "policies", "policies": ["app"]}],
                 "observed": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy",
                               "name": "policies.setup", "namespace": "local-cluster", "compliant": "NonCompliant"}]}
                """);

        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        assertFalse(body.path("decisionId").asText().isEmpty());
        JsonNode policy = body.path("policies").get(0);
        assertEquals("app", policy.path("name").asText());
        assertEquals("policies", policy.path("namespace").asText());
        assertEquals("Pending", policy.path("compliant").asText());
        JsonNode template = policy.path("templates").get(0);
        assertEquals(0, template.path("index").asInt());
        assertEquals("app-config", template.path("name").asText());
        assertEquals("PENDING", template.path("state").asText());
        assertEquals("Pending", template.path("compliant").asText());
        assertEquals("DELETE", template.path("action").asText());
        assertEquals("Dependencies were not satisfied: 1 is still pending (Policy policies.setup)", template.path("message").asText());
        assertEquals("policies.setup", template.path("unmet").get(0).path("dependency").path("name").asText());
        assertEquals("Compliance mismatch on the dependency object", template.path("unmet").get(0).path("reason").asText());
        assertEquals("Policy policies.setup", template.path("waitingOn").get(0).asText());
        JsonNode set = body.path("policySets").get(0);
        assertEquals("Pending", set.path("compliant").asText());
        assertEquals("Policies awaiting pending dependencies: app", set.path("message").asText());
        assertTrue(body.path("cycles").isArray() && body.path("cycles").isEmpty(), response.body());
        assertTrue(body.path("firedRules").toString().contains("A template with an unmet dependency is pending"), response.body());
    }

    @Test
    void yamlBodiesAreAccepted() {
        var response = client.send("POST", PATH, "application/yaml", """
                policies:
                  - name: app
                    namespace: policies
                    policyTemplates: [{name: t, kind: ConfigurationPolicy}]
                """.getBytes());

        assertEquals(200, response.status(), response.body());
        assertEquals("ACTIVE", response.json().path("policies").get(0).path("templates").get(0).path("state").asText());
        assertEquals("APPLY", response.json().path("policies").get(0).path("templates").get(0).path("action").asText());
    }

    @Test
    void badComplianceIs400AtItsPath() {
        var response = client.postJson(PATH, """
                {"policies": [{"name": "app", "namespace": "policies", "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy",
                  "extraDependencies": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "compliance": "compliant"}]}]}]}
                """);

        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        assertTrue(response.body().contains("$.policies[0].policyTemplates[0].extraDependencies[0].compliance"), response.body());
    }

    @Test
    void everyObjectObservedTwiceIs400AtItsSecondEntry() {
        var response = client.postJson(PATH, """
                {"policies": [{"name": "app", "namespace": "policies", "policyTemplates": [{"name": "t", "kind": "ConfigurationPolicy"}]}],
                 "observed": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "default", "compliant": "Compliant"},
                              {"apiVersion": "v1", "kind": "ConfigMap", "name": "d", "namespace": "default", "compliant": "Compliant"},
                              {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "namespace": "default", "compliant": "NonCompliant"},
                              {"apiVersion": "v1beta1", "kind": "ConfigMap", "name": "d", "namespace": "default"}]}
                """);

        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
        JsonNode details = response.json().path("error").path("details");
        assertEquals(2, details.size(), response.body());
        assertEquals("$.observed[2]", details.get(0).path("path").asText(), response.body());
        assertEquals("$.observed[3]", details.get(1).path("path").asText(), response.body());
        assertTrue(details.get(1).path("problem").asText().contains("ConfigMap default/d is listed already, as observed[1]"),
                response.body());
    }

    @Test
    void missingPoliciesAndUnknownFieldsAre400() {
        var missing = client.postJson(PATH, "{\"observed\": []}");
        assertEquals(400, missing.status(), missing.body());
        assertTrue(missing.body().contains("policies"), missing.body());

        var unknown = client.postJson(PATH, "{\"policies\": [], \"polices\": []}");
        assertEquals(400, unknown.status(), unknown.body());
        assertTrue(unknown.body().contains("polices"), unknown.body());
    }

    @Test
    void unknownApiVersionIs400() {
        var response = client.postJson(PATH, "{\"apiVersion\": \"9.9.9\", \"policies\": []}");
        assertEquals(400, response.status(), response.body());
        assertEquals("INVALID_REQUEST", response.errorCode());
    }

    @Test
    void theTypeIsListed() {
        var response = client.get("/v1/policy-types/ocm.dependencies");

        assertEquals(200, response.status(), response.body());
        assertEquals("POST /v1/decisions/dependencies", response.json().path("targets").get(0).path("endpoint").asText(), response.body());
        assertTrue(response.body().contains("0.1.0"), response.body());
    }
}
