package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Wrong shapes, out-of-range numbers and refused-but-accepted input, over real HTTP (issue 24): every one is a 400
 * or 422 whose details name the field and, the input being text, its line and column. Never a 5xx.
 */
class ShapeErrorsEndpointTest {

    private static final String TOKEN = "test-admin-token";
    private static final String IMPLEMENTATION = "/v1/decisions/implementation";
    private static final String BACKEND = "/v1/decisions/backend";
    private static final String DEPENDENCIES = "/v1/decisions/dependencies";
    private static final String ROLLOUT = "/v1/decisions/rollout";
    /** In the embedded TypeInstance store, of a Type that does not extend cap.core.type.hub.storage. */
    private static final String NOT_A_STORAGE = "517cf827-233c-4bf1-8fc9-48534424dd58";

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

    /** The detail at {@code path}, asserting it carries a line and a column. */
    private static JsonNode locatedDetail(JsonNode details, String path, String body) {
        List<String> paths = new ArrayList<>();
        for (JsonNode detail : details) {
            paths.add(detail.path("path").asText());
            if (detail.path("path").asText().equals(path)) {
                assertTrue(detail.path("line").isInt() && detail.path("line").asInt() > 0, "no line: " + body);
                assertTrue(detail.path("column").isInt() && detail.path("column").asInt() > 0, "no column: " + body);
                return detail;
            }
        }
        throw new AssertionError("no detail at " + path + " among " + paths + ": " + body);
    }

    private static JsonNode assertError(HttpTestClient.Response response, int status, String code, String path) {
        assertEquals(status, response.status(), response.body());
        assertEquals(code, response.errorCode(), response.body());
        return locatedDetail(response.json().path("error").path("details"), path, response.body());
    }

    private static HttpTestClient.Response put(String json) {
        return client.send("PUT", "/v1/policy", "application/json", json.getBytes(), "Authorization", "Bearer " + TOKEN);
    }

    private static String rollout(String groups, String now) {
        return "{\"decisionGroups\": " + groups + ", \"now\": \"" + now + "\"}";
    }

    // 1. Lists given as objects (or any other wrong JSON type) inside a policy

    @Test
    void aPolicyListGivenAsAnObjectIsAProblemOnValidateAndPut() {
        String policy = "{\"interface\": {\"rules\": {\"x\": 1}}}";

        var validation = client.send("POST", "/v1/policy/validate", "application/json", policy.getBytes());
        var replaced = put(policy);

        assertEquals(200, validation.status(), validation.body());
        assertFalse(validation.json().path("valid").asBoolean(), validation.body());
        locatedDetail(validation.json().path("problems"), "$.interface.rules", validation.body());
        assertError(replaced, 422, "INVALID_POLICY", "$.interface.rules");
    }

    @Test
    void everyPolicyListGivenAsAnObjectOrAScalarIsLocated() {
        String[][] cases = {
                {"{\"interface\": {\"rules\": [{\"interface\": {\"path\": \"cap.*\"}, \"oneOf\": {\"x\": 1}}]}}",
                        "$.interface.rules[0].oneOf"},
                {"{\"interface\": {\"rules\": [{\"interface\": {\"path\": \"cap.*\"}, \"oneOf\": [{\"implementationConstraints\":"
                        + " {\"attributes\": {\"x\": 1}}}]}]}}", "$.interface.rules[0].oneOf[0].implementationConstraints.attributes"},
                {"{\"interface\": {\"rules\": [{\"interface\": {\"path\": \"cap.*\"}, \"oneOf\": [{\"implementationConstraints\":"
                        + " {\"requires\": 7}}]}]}}", "$.interface.rules[0].oneOf[0].implementationConstraints.requires"},
                {"{\"interface\": {\"rules\": [{\"interface\": {\"path\": \"cap.*\"}, \"oneOf\": [{\"inject\":"
                        + " {\"additionalParameters\": {\"x\": 1}}}]}]}}", "$.interface.rules[0].oneOf[0].inject.additionalParameters"},
                {"{\"interface\": {\"rules\": [\"x\"]}}", "$.interface.rules[0]"},
                {"{\"interface\": {\"rules\": [{\"interface\": \"cap.*\", \"oneOf\": [1]}]}}", "$.interface.rules[0].interface"},
                {"{\"interface\": {\"default\": {\"inject\": {\"requiredTypeInstances\": {\"x\": 1}}}}}",
                        "$.interface.default.inject.requiredTypeInstances"},
                {"{\"typeInstance\": {\"rules\": {\"x\": 1}}}", "$.typeInstance.rules"},
                {"{\"typeInstance\": {\"rules\": [[1]]}}", "$.typeInstance.rules[0]"},
                {"{\"interface\": []}", "$.interface"},
        };
        for (String[] c : cases) {
            var response = client.send("POST", "/v1/policy/validate", "application/json", c[0].getBytes());
            assertEquals(200, response.status(), c[0] + " -> " + response.body());
            locatedDetail(response.json().path("problems"), c[1], response.body());
        }
    }

    @Test
    void actionAndWorkflowPolicyListsGivenAsObjectsAre422UnderTheirField() {
        String rule = "{\"interface\": {\"path\": \"cap.*\"}, \"oneOf\": [{\"implementationConstraints\": {\"%s\": {\"x\": 1}}}]}";
        for (String field : List.of("attributes", "requires")) {
            var response = client.postJson(IMPLEMENTATION, """
                    {"interface": {"path": "cap.interface.database.postgresql.install"},
                     "actionPolicy": {"interface": {"rules": [%s]}}}
                    """.formatted(rule.formatted(field)));
            assertError(response, 422, "INVALID_POLICY", "$.actionPolicy.interface.rules[0].oneOf[0].implementationConstraints." + field);
        }
        var oneOf = client.postJson(IMPLEMENTATION, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.*"}, "oneOf": {"x": 1}}]}}}
                """);
        var workflow = client.postJson(IMPLEMENTATION, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "workflowPolicies": [{"interface": {"rules": [{"interface": {"path": "cap.*"}, "oneOf": {"x": 1}}]}}]}
                """);
        var workflowRules = client.postJson(IMPLEMENTATION, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "workflowPolicies": [{"interface": {"rules": {"x": {"oneOf": []}}}}]}
                """);
        var workflowInject = client.postJson(IMPLEMENTATION, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "workflowPolicies": [{"interface": {"rules": [{"interface": {"path": "cap.*"}, "oneOf": [{"inject": [1]}]}]}}]}
                """);

        assertError(oneOf, 422, "INVALID_POLICY", "$.actionPolicy.interface.rules[0].oneOf");
        assertError(workflow, 422, "INVALID_POLICY", "$.workflowPolicies[0].interface.rules[0].oneOf");
        assertError(workflowRules, 422, "INVALID_POLICY", "$.workflowPolicies[0].interface.rules");
        assertError(workflowInject, 422, "INVALID_POLICY", "$.workflowPolicies[0].interface.rules[0].oneOf[0].inject");
    }

    @Test
    void aBackendRequestsTypeInstanceRulesGivenAsAnObjectIs422() {
        var response = client.postJson(BACKEND, """
                {"typeRefs": [{"path": "cap.type.aws.auth.credentials"}],
                 "actionPolicy": {"typeInstance": {"rules": {"x": 1}}}}
                """);

        assertError(response, 422, "INVALID_POLICY", "$.actionPolicy.typeInstance.rules");
    }

    @Test
    void aLegacyActionPolicyWithAWrongShapeIsLocatedToo() {
        var response = client.postJson(BACKEND, """
                {"typeRefs": [{"path": "cap.type.aws.auth.credentials"}],
                 "actionPolicy": {"apiVersion": "0.1.0", "rules": {"cap.*": {"oneOf": {"x": 1}}}}}
                """);

        assertEquals(422, response.status(), response.body());
        assertEquals("INVALID_POLICY", response.errorCode(), response.body());
        JsonNode detail = response.json().path("error").path("details").get(0);
        assertTrue(detail.path("path").asText().startsWith("$.actionPolicy"), response.body());
        assertTrue(detail.path("line").isInt(), response.body());
    }

    // 2. RFC 3339 times

    @Test
    void timesAfter2262AreDecidedOrLocatedNeverA500() {
        String groups = "[{\"groupIndex\": 0, \"clusters\": [\"c1\"]}]";

        var late = client.postJson(ROLLOUT, rollout(groups, "9999-12-31T23:59:59Z"));
        var lateRecord = client.postJson(ROLLOUT, """
                {"decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z",
                 "clusters": [{"name": "c1", "status": "Progressing", "lastTransitionTime": "9999-12-31T23:59:59.999999999+00:00"}]}
                """);
        var early = client.postJson(ROLLOUT, rollout(groups, "0000-01-01T00:00:00Z"));

        assertEquals(200, late.status(), late.body());
        assertEquals(200, lateRecord.status(), lateRecord.body());
        assertEquals(200, early.status(), early.body());
    }

    @Test
    void aTimeWithAnEmptyFractionOrOtherMistakesIsALocated400() {
        String groups = "[{\"groupIndex\": 0, \"clusters\": [\"c1\"]}]";
        for (String time : List.of("2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.+01:00", "2026-02-30T00:00:00Z",
                "2026-01-01T24:00:00Z", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00+24:00")) {
            var response = client.postJson(ROLLOUT, rollout(groups, time));
            assertError(response, 400, "INVALID_REQUEST", "$.now");
        }
        var record = client.postJson(ROLLOUT, """
                {"decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z",
                 "clusters": [{"name": "c1", "status": "Progressing", "lastTransitionTime": "2026-01-01T00:00:00.Z"}]}
                """);
        assertError(record, 400, "INVALID_REQUEST", "$.clusters[0].lastTransitionTime");
    }

    // 3. Go durations

    @Test
    void aLongDurationIsParsedWithoutRecursionAndAnOverflowIsALocated400() {
        // durations are at most 64 characters at the edge; GoDurationTest parses far longer ones without recursion
        String longButFine = "1s".repeat(32);
        String overflowing = "1000000h".repeat(8);

        var fine = client.postJson(ROLLOUT, """
                {"strategy": {"type": "All", "all": {"minSuccessTime": "%s"}},
                 "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                """.formatted(longButFine));
        var overflow = client.postJson(ROLLOUT, """
                {"strategy": {"type": "Progressive", "progressive": {"progressDeadline": "%s"}},
                 "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                """.formatted(overflowing));

        assertEquals(200, fine.status(), fine.body());
        assertError(overflow, 400, "INVALID_REQUEST", "$.strategy.progressive.progressDeadline");
    }

    // 4. Numbers fit their field's range

    @Test
    void numbersOutsideTheirFieldsRangeAreALocated400() {
        String[][] cases = {
                {ROLLOUT, rollout("[{\"groupIndex\": 2147483648, \"clusters\": [\"c1\"]}]", "2026-01-01T00:00:00Z"),
                        "$.decisionGroups[0].groupIndex"},
                {ROLLOUT, rollout("[{\"groupIndex\": 1e400, \"clusters\": [\"c1\"]}]", "2026-01-01T00:00:00Z"),
                        "$.decisionGroups[0].groupIndex"},
                {ROLLOUT, rollout("[{\"groupIndex\": 1.5, \"clusters\": [\"c1\"]}]", "2026-01-01T00:00:00Z"),
                        "$.decisionGroups[0].groupIndex"},
                {ROLLOUT, rollout("[{\"groupIndex\": -1, \"clusters\": [\"c1\"]}]", "2026-01-01T00:00:00Z"),
                        "$.decisionGroups[0].groupIndex"},
                {ROLLOUT, """
                        {"strategy": {"type": "Progressive", "progressive": {"mandatoryDecisionGroups": [{"groupIndex": 4294967296}]}},
                         "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                        """, "$.strategy.progressive.mandatoryDecisionGroups[0].groupIndex"},
                {ROLLOUT, """
                        {"strategy": {"type": "Progressive", "progressive": {"maxConcurrency": 1e400}},
                         "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                        """, "$.strategy.progressive.maxConcurrency"},
                {ROLLOUT, """
                        {"strategy": {"type": "All", "all": {"maxFailures": 2147483648}},
                         "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                        """, "$.strategy.all.maxFailures"},
                {ROLLOUT, """
                        {"strategy": {"type": "Progressive", "progressive": {"maxFailures": "1e400%"}},
                         "decisionGroups": [{"groupIndex": 0, "clusters": ["c1"]}], "now": "2026-01-01T00:00:00Z"}
                        """, "$.strategy.progressive.maxFailures"},
        };
        for (String[] c : cases) {
            assertError(client.postJson(c[0], c[1]), 400, "INVALID_REQUEST", c[2]);
        }
    }

    /**
     * Issue 45: an observed object's status is the cluster's, not the caller's mistake. A totalViolations the
     * reference's NestedInt64 cannot read (past 2^63-1, a string) leaves the dependency unmet, a negative one counts as
     * violations; none of them refuses the request.
     */
    @Test
    void observedTotalViolationsAreReadAsTheClusterHasThem() {
        for (String value : java.util.List.of("9223372036854775808", "\"2\"", "-3", "1.0")) {
            var response = client.postJson(DEPENDENCIES, """
                    {"policies": [{"name": "app", "namespace": "policies", "policyTemplates": [{"name": "t",
                       "kind": "ConfigurationPolicy", "extraDependencies": [{"apiVersion": "constraints.gatekeeper.sh/v1beta1",
                       "kind": "K8sRequiredLabels", "name": "c", "compliance": "Compliant"}]}]}],
                     "observed": [{"apiVersion": "constraints.gatekeeper.sh/v1beta1", "kind": "K8sRequiredLabels",
                                   "name": "c", "totalViolations": %s}]}
                    """.formatted(value));
            assertEquals(200, response.status(), value + ": " + response.body());
            JsonNode template = response.json().path("policies").get(0).path("templates").get(0);
            assertEquals("PENDING", template.path("state").asText(), value + ": " + response.body());
            assertEquals(value.equals("-3") ? "Compliance mismatch on the dependency object"
                            : "Failed to find complianceState on the dependency object",
                    template.path("unmet").get(0).path("reason").asText(), value + ": " + response.body());
        }
    }

    /**
     * The schema takes 1.0 as the integer 1 (JSON Schema draft 7), but the reference's IntOrString refuses a JSON number
     * written with a fraction (issue 45): a located 400 that says how to write it, where 1 decides.
     */
    @Test
    void aWholeNumberWrittenWithAFractionIsRefusedAsTheReferenceRefusesIt() {
        String request = """
                {"strategy": {"type": "Progressive", "progressive": {"maxConcurrency": %s}},
                 "decisionGroups": [{"groupIndex": 0, "clusters": ["c1", "c2", "c3"]}], "now": "2026-01-01T00:00:00Z"}
                """;

        var whole = client.postJson(ROLLOUT, request.formatted("1"));
        var fraction = client.postJson(ROLLOUT, request.formatted("1.0"));

        assertEquals(200, whole.status(), whole.body());
        assertEquals(1, whole.json().path("toRollout").size(), whole.body());
        JsonNode detail = assertError(fraction, 400, "INVALID_REQUEST", "$.strategy.progressive.maxConcurrency");
        assertTrue(detail.path("problem").asText().contains("1.0 is not a whole number: write it without a decimal "
                + "point"), fraction.body());
    }

    // 5. Duplicates and unknown fields

    @Test
    void aPolicyListedTwiceInADependenciesRequestIsALocated400NamingBoth() {
        var response = client.postJson(DEPENDENCIES, """
                {"policies": [{"name": "app", "namespace": "policies"},
                              {"name": "other", "namespace": "policies"},
                              {"name": "app", "namespace": "policies"}]}
                """);

        JsonNode detail = assertError(response, 400, "INVALID_REQUEST", "$.policies[2]");
        assertTrue(detail.path("problem").asText().contains("$.policies[0]"), response.body());
    }

    @Test
    void anUnknownFieldInAnInlineTypeInstanceIsALocated400() {
        var response = client.postJson(IMPLEMENTATION, """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "typeInstances": [{"id": "a", "typeRef": {"path": "cap.type.x", "revision": "0.1.0", "extra": 1},
                                    "bogus": true}]}
                """);

        assertError(response, 400, "INVALID_REQUEST", "$.typeInstances[0].bogus");
        assertError(response, 400, "INVALID_REQUEST", "$.typeInstances[0].typeRef.extra");
    }

    // 6. Hub storage backends in an embedded policy

    @Test
    void aBackendThatIsNotAHubStorageInABackendActionPolicyIs422() {
        var response = client.postJson(BACKEND, """
                {"typeRefs": [{"path": "cap.type.aws.auth.credentials"}],
                 "actionPolicy": {"typeInstance": {"rules": [
                   {"typeRef": {"path": "cap.type.aws.*"}, "backend": {"id": "%s"}}]}}}
                """.formatted(NOT_A_STORAGE));

        JsonNode detail = assertError(response, 422, "INVALID_POLICY", "$.actionPolicy.typeInstance.rules[0].backend.id");
        assertTrue(detail.path("problem").asText().contains("is not a Hub storage"), response.body());
    }
}
