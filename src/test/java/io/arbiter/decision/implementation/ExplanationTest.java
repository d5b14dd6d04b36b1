package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code explain: true}: one reason per constraint kind (path, attribute, requires) and per requirement kind
 * (allOf without a TypeInstance, aliased without injection, anyOf, oneOf with 0 and 2 satisfied items), and
 * {@code matched} + {@code rejected} partitioning {@code tried}. Inline {@code implementations} cover what the
 * embedded catalog lacks.
 */
class ExplanationTest {

    private static final String HELM_STORAGE = "c268d3f5-8834-434b-bea2-b677793611c5";
    private static final String GCP_SERVICE_ACCOUNT = "9038dcdc-e959-41c4-a690-d8ebf929ac0c";
    private static final String POSTGRES = "cap.interface.database.postgresql.install";

    private static final String AWS = "cap.implementation.aws.rds.postgresql.install:0.1.0";
    private static final String BITNAMI = "cap.implementation.bitnami.postgresql.install:0.1.0";
    private static final String GCP_1 = "cap.implementation.gcp.cloudsql.postgresql.install:0.1.0";
    private static final String GCP_2 = "cap.implementation.gcp.cloudsql.postgresql.install:0.2.0";

    private static final String AWS_NEEDS_INJECTION =
            "requirement cap.type.aws.auth.credentials:0.1.0 (alias aws-credentials) needs an injected TypeInstance";
    private static final String GCP_NEEDS_INJECTION =
            "requirement cap.type.gcp.auth.service-account:0.1.0 (alias gcp-sa) needs an injected TypeInstance";

    /** Path, attribute and requires constraints, and aliased allOf requirements, on the embedded catalog. */
    private static final String CONSTRAINTS_POLICY = """
            interface:
              default: {inject: {requiredTypeInstances: [{id: %s}]}}
              rules:
                - interface: {path: %s}
                  oneOf:
                    - implementationConstraints: {path: cap.implementation.bitnami.postgresql.install}
                    - implementationConstraints:
                        attributes: [{path: cap.attribute.cloud.provider.aws, revision: 0.1.0}]
                    - implementationConstraints:
                        requires: [{path: cap.type.gcp.auth.service-account}]
                      inject: {requiredTypeInstances: [{id: %s}]}
            """.formatted(HELM_STORAGE, POSTGRES, GCP_SERVICE_ACCOUNT);

    private static final String POSTGRES_REQUEST = """
            interface: {path: %s, revision: 0.1.0}
            """.formatted(POSTGRES);

    @Test
    void pathConstraint() {
        JsonNode item = explanation(decide(CONSTRAINTS_POLICY, POSTGRES_REQUEST + "explain: true\n")).get(0);

        assertEquals(0, item.path("oneOfIndex").asInt());
        assertEquals("interface.rules[0].oneOf[0]", item.path("item").asText());
        assertEquals("cap.implementation.bitnami.postgresql.install", item.path("constraints").path("path").asText());
        assertEquals(4, item.path("tried").asInt());
        assertEquals(List.of(BITNAMI), refs(item.path("matched")));
        assertEquals(Map.of(
                AWS, List.of("path cap.implementation.aws.rds.postgresql.install is not cap.implementation.bitnami.postgresql.install",
                        AWS_NEEDS_INJECTION),
                GCP_2, List.of("path cap.implementation.gcp.cloudsql.postgresql.install is not cap.implementation.bitnami.postgresql.install",
                        GCP_NEEDS_INJECTION),
                GCP_1, List.of("path cap.implementation.gcp.cloudsql.postgresql.install is not cap.implementation.bitnami.postgresql.install",
                        GCP_NEEDS_INJECTION)), rejected(item));
        // rejected in candidate order: path ascending, then revision descending
        assertEquals(List.of(AWS, GCP_2, GCP_1), List.copyOf(rejected(item).keySet()));
    }

    @Test
    void attributeConstraintAndAliasedRequirementWithoutInjection() {
        JsonNode item = explanation(decide(CONSTRAINTS_POLICY, POSTGRES_REQUEST + "explain: true\n")).get(1);

        assertEquals(1, item.path("oneOfIndex").asInt());
        assertEquals("interface.rules[0].oneOf[1]", item.path("item").asText());
        assertEquals(4, item.path("tried").asInt());
        assertEquals(List.of(), refs(item.path("matched")));
        // AWS has the attribute; only the credentials nothing injects for this item reject it
        assertEquals(Map.of(
                AWS, List.of(AWS_NEEDS_INJECTION),
                BITNAMI, List.of("missing attribute cap.attribute.cloud.provider.aws:0.1.0"),
                GCP_2, List.of("missing attribute cap.attribute.cloud.provider.aws:0.1.0", GCP_NEEDS_INJECTION),
                GCP_1, List.of("missing attribute cap.attribute.cloud.provider.aws:0.1.0", GCP_NEEDS_INJECTION)),
                rejected(item));
    }

    @Test
    void requiresConstraint() {
        JsonNode decision = decide(CONSTRAINTS_POLICY, POSTGRES_REQUEST + "explain: true\n");
        JsonNode item = explanation(decision).get(2);

        assertEquals(2, item.path("oneOfIndex").asInt());
        assertEquals(4, item.path("tried").asInt());
        // the item injects the service account, so both GCP revisions match
        assertEquals(List.of(GCP_2, GCP_1), refs(item.path("matched")));
        assertEquals(Map.of(
                AWS, List.of("does not require cap.type.gcp.auth.service-account", AWS_NEEDS_INJECTION),
                BITNAMI, List.of("does not require cap.type.gcp.auth.service-account")), rejected(item));
        // explaining does not change the decision: item 0 (Bitnami) wins
        assertEquals("SELECTED", decision.path("outcome").asText());
        assertEquals(0, decision.path("rule").path("oneOfIndex").asInt());
        assertEquals(3, explanation(decision).size());
    }

    @Test
    void allOfRequirementWithoutTypeInstanceInTheSystem() {
        JsonNode decision = decide(inlinePolicy(), """
                interface: {path: %s, revision: 0.1.0}
                explain: true
                typeInstances:
                  - id: 0b5a1c2d-3e4f-4a5b-8c6d-7e8f90000001
                    typeRef: {path: cap.type.example.a, revision: 0.1.0}
                implementations:
                  - %s
                  - %s
                """.formatted(POSTGRES,
                implementation("alpha", "{cap.type.example: {allOf: [{name: a, revision: 0.1.0}, {name: b, revision: 0.1.0}]}}"),
                implementation("beta", "{cap.type.example: {allOf: [{name: a, revision: 0.1.0}]}}")));

        JsonNode item = single(explanation(decision));
        assertEquals(2, item.path("tried").asInt());
        assertEquals(List.of("cap.implementation.example.beta.install:0.1.0"), refs(item.path("matched")));
        assertEquals(Map.of("cap.implementation.example.alpha.install:0.1.0",
                List.of("requirement cap.type.example.b:0.1.0 has no TypeInstance in the system")), rejected(item));
    }

    @Test
    void anyOfGroupWithoutSatisfiedItem() {
        JsonNode decision = decide(inlinePolicy(), """
                interface: {path: %s, revision: 0.1.0}
                explain: true
                typeInstances:
                  - id: 0b5a1c2d-3e4f-4a5b-8c6d-7e8f90000002
                    typeRef: {path: cap.type.example.b, revision: 0.1.0}
                implementations:
                  - %s
                  - %s
                """.formatted(POSTGRES,
                implementation("beta", "{cap.type.example: {anyOf: [{name: c, revision: 0.1.0}, {name: d, revision: 0.1.0}]}}"),
                implementation("alpha", "{cap.type.example: {anyOf: [{name: a, revision: 0.1.0}, {name: b, revision: 0.1.0}]}}")));

        JsonNode item = single(explanation(decision));
        assertEquals(2, item.path("tried").asInt());
        assertEquals(List.of("cap.implementation.example.alpha.install:0.1.0"), refs(item.path("matched")));
        assertEquals(Map.of("cap.implementation.example.beta.install:0.1.0",
                List.of("anyOf group cap.type.example has no satisfied item")), rejected(item));
    }

    @Test
    void oneOfGroupWithNoSatisfiedItem() {
        // the platform provides kubernetes:0.1.0, not 0.2.0, and there is no Nomad
        JsonNode decision = decide(inlinePolicy(), """
                interface: {path: %s, revision: 0.1.0}
                explain: true
                implementations:
                  - %s
                """.formatted(POSTGRES, implementation("new-platform",
                "{cap.core.type.platform: {oneOf: [{name: kubernetes, revision: 0.2.0}, {name: nomad, revision: 0.1.0}]}}")));

        assertEquals("NO_MATCH", decision.path("outcome").asText());
        JsonNode item = single(explanation(decision));
        assertEquals(1, item.path("tried").asInt());
        assertEquals(List.of(), refs(item.path("matched")));
        assertEquals(Map.of("cap.implementation.example.new-platform.install:0.1.0",
                List.of("oneOf group cap.core.type.platform has 0 satisfied items, exactly 1 allowed")), rejected(item));
    }

    @Test
    void oneOfGroupWithTwoSatisfiedItems() {
        // the platform provides Kubernetes, the request's TypeInstances a Nomad cluster
        JsonNode decision = decide(inlinePolicy(), """
                interface: {path: %s, revision: 0.1.0}
                explain: true
                typeInstances:
                  - id: 8c7e4b1a-2f3d-4e5a-9b6c-7d8e9f000001
                    typeRef: {path: cap.core.type.platform.nomad, revision: 0.1.0}
                implementations:
                  - %s
                  - %s
                """.formatted(POSTGRES,
                implementation("dual-platform",
                        "{cap.core.type.platform: {oneOf: [{name: kubernetes, revision: 0.1.0}, {name: nomad, revision: 0.1.0}]}}"),
                implementation("kubernetes-only", "{cap.core.type.platform: {oneOf: [{name: kubernetes, revision: 0.1.0}]}}")));

        assertEquals("SELECTED", decision.path("outcome").asText());
        JsonNode item = single(explanation(decision));
        assertEquals(2, item.path("tried").asInt());
        assertEquals(List.of("cap.implementation.example.kubernetes-only.install:0.1.0"), refs(item.path("matched")));
        assertEquals(Map.of("cap.implementation.example.dual-platform.install:0.1.0",
                List.of("oneOf group cap.core.type.platform has 2 satisfied items, exactly 1 allowed")), rejected(item));
    }

    @Test
    void matchedAndRejectedPartitionTried() {
        List<JsonNode> items = new ArrayList<>(explanation(decide(CONSTRAINTS_POLICY, POSTGRES_REQUEST + "explain: true\n")));
        // the embedded global policy: cap.* [requires kubernetes, {}]
        items.addAll(explanation(Fixtures.decisions(Fixtures.snapshot(Fixtures.embeddedPolicy()))
                .decide("implementation", json(POSTGRES_REQUEST + "explain: true\n"), "application/json")));
        assertEquals(5, items.size());
        for (JsonNode item : items) {
            List<String> matched = refs(item.path("matched"));
            Set<String> rejected = rejected(item).keySet();
            Set<String> all = new HashSet<>(matched);
            all.addAll(rejected);
            assertEquals(item.path("tried").asInt(), matched.size() + rejected.size(), "tried = matched + rejected: " + item);
            assertEquals(item.path("tried").asInt(), all.size(), "matched and rejected are disjoint: " + item);
            rejected(item).values().forEach(reasons -> assertFalse(reasons.isEmpty(), "a rejection has a reason: " + item));
        }
    }

    @Test
    void withoutExplainThereIsNoExplanation() {
        for (String request : List.of(POSTGRES_REQUEST, POSTGRES_REQUEST + "explain: false\n")) {
            JsonNode decision = decide(CONSTRAINTS_POLICY, request);
            assertEquals("SELECTED", decision.path("outcome").asText());
            assertFalse(decision.has("explanation"), "no explanation without explain: " + decision);
            // nor do the explanation phases run
            decision.path("firedRules").forEach(firing -> assertFalse(
                    firing.path("name").asText().equals("Implementation of the Interface is tried for each oneOf item"),
                    "explain rule fired without explain: " + firing));
        }
        JsonNode explained = decide(CONSTRAINTS_POLICY, POSTGRES_REQUEST + "explain: true\n");
        assertTrue(explained.path("explanation").isArray(), "explanation with explain: " + explained);
    }

    // ---- helpers ----

    /** A path rule with one unconstrained item and no injection (the inline stores lack the embedded Helm storage). */
    private static String inlinePolicy() {
        return """
                interface:
                  rules:
                    - interface: {path: %s}
                      oneOf:
                        - implementationConstraints: {}
                """.formatted(POSTGRES);
    }

    /** An inline Implementation manifest of the PostgreSQL Interface, as one YAML flow mapping. */
    private static String implementation(String name, String requires) {
        return ("{ocfVersion: 0.0.1, revision: 0.1.0, kind: Implementation,"
                + " metadata: {prefix: cap.implementation.example.%s, name: install},"
                + " spec: {implements: [{path: %s, revision: 0.1.0}], requires: %s}}").formatted(name, POSTGRES, requires);
    }

    private static byte[] json(String yaml) {
        try {
            return Documents.jsonMapper().writeValueAsBytes(Documents.parseYaml(yaml.getBytes(StandardCharsets.UTF_8)).tree());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode decide(String policyYaml, String requestYaml) {
        return Fixtures.decisions(Fixtures.snapshot(Fixtures.policy(policyYaml)))
                .decide("implementation", json(requestYaml), "application/json");
    }

    private static List<JsonNode> explanation(JsonNode decision) {
        JsonNode explanation = decision.path("explanation");
        assertTrue(explanation.isArray(), "explanation: " + decision);
        List<JsonNode> items = new ArrayList<>();
        explanation.forEach(items::add);
        return items;
    }

    private static JsonNode single(List<JsonNode> items) {
        assertEquals(1, items.size(), "explanation items: " + items);
        return items.get(0);
    }

    private static List<String> refs(JsonNode refs) {
        List<String> list = new ArrayList<>();
        refs.forEach(ref -> list.add(ref.path("path").asText() + ":" + ref.path("revision").asText()));
        return list;
    }

    /** rejected as Implementation ref -> reasons, in the response's order. */
    private static Map<String, List<String>> rejected(JsonNode item) {
        Map<String, List<String>> rejected = new LinkedHashMap<>();
        item.path("rejected").forEach(rejection -> {
            List<String> reasons = new ArrayList<>();
            rejection.path("reasons").forEach(reason -> reasons.add(reason.asText()));
            rejected.put(rejection.path("implementation").path("path").asText() + ":"
                    + rejection.path("implementation").path("revision").asText(), reasons);
        });
        return rejected;
    }
}
