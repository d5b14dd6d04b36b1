package io.arbiter.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.DecisionException;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.RuleTestSupport;
import io.arbiter.decision.implementation.ImplementationDecision;
import io.arbiter.document.Documents;
import io.arbiter.policy.PolicyDocument;
import io.arbiter.policy.PolicyParser;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every scenario in {@code fixtures/scenarios/}: a global policy, optionally a TypeInstance store, a request
 * (the HTTP body of {@code POST /v1/decisions/implementation}) and the expected decision. The catalog is the
 * embedded fixture catalog unless the request carries inline {@code implementations}. See
 * {@code fixtures/scenarios/README.md} for the format.
 */
class ScenarioTest {

    static Stream<Arguments> scenarios() throws IOException {
        try (Stream<Path> files = Files.list(Fixtures.SCENARIOS)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream()
                    .map(f -> Arguments.of(f.getFileName().toString(), f));
        }
    }

    @Test
    void thereAreEnoughScenarios() throws IOException {
        assertTrue(scenarios().count() >= 25, "fixtures/scenarios/ must hold at least 25 scenarios");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void scenario(String name, Path file) throws IOException {
        JsonNode scenario = Documents.parseYaml(Files.readAllBytes(file)).tree();
        Decisions decisions = decisionsFor(scenario);
        JsonNode expect = scenario.path("expect");
        byte[] request = Documents.jsonMapper().writeValueAsBytes(scenario.path("request"));

        int expectedStatus = expect.path("status").asInt(200);
        String target = scenario.path("target").asText("implementation");
        try {
            ObjectNode actual = decisions.decide(target, request, "application/json");
            assertEquals(200, expectedStatus, name + ": expected an error but got " + actual);
            assertSubset(expect, actual, name);
            assertFiredRules(expect, actual, name, decisions);
        } catch (DecisionException e) {
            int status = e.code() == DecisionException.Code.INVALID_POLICY ? 422 : 400;
            assertEquals(expectedStatus, status, name + ": unexpected error " + e.code() + " " + e.problems());
            assertEquals(required(expect, "code", name), e.code().name(), name);
            String mentions = required(expect, "mentions", name);
            String all = e.getMessage() + " " + e.problems();
            assertTrue(all.contains(mentions), name + ": error should mention '" + mentions + "' but was " + all);
        }
    }

    /** An expected error names its code and a text of its message: absent, it would match any error. */
    private static String required(JsonNode expect, String field, String name) {
        String value = expect.path("error").path(field).asText("");
        assertTrue(!value.isBlank(), name + ": an expected error must give error." + field);
        return value;
    }

    /**
     * The decision rule ("matching") and the reason rules ("explain") are written apart; on every scenario,
     * an Implementation must match an item exactly when no reason rejects it, and explaining must not change the
     * decision.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void explanationAgreesWithTheDecision(String name, Path file) throws IOException {
        JsonNode scenario = Documents.parseYaml(Files.readAllBytes(file)).tree();
        if (scenario.path("expect").path("status").asInt(200) != 200
                || !scenario.path("target").asText("implementation").equals("implementation")) {
            return;
        }
        Decisions decisions = decisionsFor(scenario);
        ObjectNode plain = scenario.path("request").deepCopy();
        plain.put("explain", false);
        ObjectNode explained = scenario.path("request").deepCopy();
        explained.put("explain", true);

        ImplementationDecision without = Documents.jsonMapper().treeToValue(decisions.decide("implementation",
                Documents.jsonMapper().writeValueAsBytes(plain), "application/json"), ImplementationDecision.class);
        ImplementationDecision with = Documents.jsonMapper().treeToValue(decisions.decide("implementation",
                Documents.jsonMapper().writeValueAsBytes(explained), "application/json"), ImplementationDecision.class);

        assertEquals(without.outcome(), with.outcome(), name);
        assertEquals(without.candidates(), with.candidates(), name);
        assertEquals(without.rule(), with.rule(), name);
        for (ImplementationDecision.ItemExplanation item : with.explanation()) {
            List<io.arbiter.model.Ref> rejected = item.rejected().stream().map(ImplementationDecision.RejectedImplementation::implementation).toList();
            assertEquals(item.tried(), item.matched().size() + rejected.size(),
                    name + " " + item.item() + ": every tried Implementation is matched or rejected, not both: " + item);
            item.matched().forEach(ref -> assertTrue(!rejected.contains(ref), name + " " + item.item() + ": " + ref + " both matched and rejected"));
            item.rejected().forEach(r -> assertTrue(!r.reasons().isEmpty(), name + ": rejection without a reason " + r));
        }
    }

    /** The scenario's global policy and TypeInstance store (default: the embedded one) over the embedded catalog. */
    private static Decisions decisionsFor(JsonNode scenario) throws IOException {
        PolicyDocument policy = PolicyParser.parse(Documents.jsonMapper().writeValueAsBytes(scenario.path("policy")),
                "application/json");
        TypeInstanceStore store = scenario.has("typeInstances")
                ? new TypeInstanceStore(TypeInstanceLoader.parse(scenario.get("typeInstances"), "$.typeInstances"))
                : Fixtures.embeddedStore();
        return Fixtures.decisions(Fixtures.snapshot(policy, Fixtures.embeddedCatalog(), store));
    }

    /** Rollout scenarios may give only the cluster names of a response list, in order. */
    private static final Map<String, String> CLUSTER_NAME_LISTS = Map.of("toRolloutClusters", "toRollout",
            "timedOutClusters", "timedOut", "removedClusters", "removed");

    /** Every field in {@code expect} (but the runner's own keys) must equal the decision's field of the same name. */
    private static void assertSubset(JsonNode expect, ObjectNode actual, String name) {
        Iterator<Map.Entry<String, JsonNode>> fields = expect.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (List.of("status", "error", "firedRules", "notFiredRules", "explanationMentions").contains(field.getKey())) {
                continue;
            }
            if (CLUSTER_NAME_LISTS.containsKey(field.getKey())) {
                List<String> names = new ArrayList<>();
                actual.path(CLUSTER_NAME_LISTS.get(field.getKey())).forEach(entry -> names.add(entry.path("cluster").asText()));
                List<String> expected = new ArrayList<>();
                field.getValue().forEach(cluster -> expected.add(cluster.asText()));
                assertEquals(expected, names, name + ": clusters of '" + CLUSTER_NAME_LISTS.get(field.getKey()) + "'");
                continue;
            }
            JsonNode expected = normalise(field.getValue());
            JsonNode got = normalise(actual.path(field.getKey()));
            assertEquals(expected, got, name + ": field '" + field.getKey() + "'");
        }
        for (JsonNode mention : expect.path("explanationMentions")) {
            assertTrue(actual.path("explanation").toString().contains(mention.asText()),
                    name + ": explanation should mention '" + mention.asText() + "': " + actual.path("explanation"));
        }
    }

    /** Every rule a scenario fired: {@code arbiter lint --fired target/fired-rules.txt} reports table rows none fired. */
    private static final java.util.Set<String> FIRED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @org.junit.jupiter.api.AfterAll
    static void writeFiredRules() throws IOException {
        if (!FIRED.isEmpty()) {
            Files.createDirectories(Path.of("target"));
            Files.write(Path.of("target/fired-rules.txt"), new java.util.TreeSet<>(FIRED));
        }
    }

    /**
     * The rules that fired for the decision: those it carries, and those recorded with the snapshot that it
     * references ({@code snapshotFirings}), which must resolve.
     */
    private static void assertFiredRules(JsonNode expect, JsonNode decision, String name, Decisions decisions) {
        List<String> fired = new ArrayList<>();
        decision.path("firedRules").forEach(rule -> fired.add(RuleTestSupport.name(rule.path("rule").asText())));
        JsonNode reference = decision.path("snapshotFirings");
        if (!reference.isMissingNode()) {
            var firings = decisions.snapshotFirings(reference.path("revision").asText()).orElseThrow()
                    .firings().get(reference.path("key").asText());
            assertEquals(reference.path("count").asInt(), firings.size(), name + ": the referenced snapshot firings");
            firings.forEach(rule -> fired.add(RuleTestSupport.name(rule)));
        }
        FIRED.addAll(fired);
        for (JsonNode rule : expect.path("firedRules")) {
            assertTrue(fired.contains(rule.asText()), name + ": rule '" + rule.asText() + "' should fire; fired " + fired);
        }
        for (JsonNode rule : expect.path("notFiredRules")) {
            if (fired.contains(rule.asText())) {
                fail(name + ": rule '" + rule.asText() + "' should not fire; fired " + fired);
            }
        }
    }

    /** Drops null-valued fields so {@code {path: x}} equals {@code {path: x, revision: null}}. */
    private static JsonNode normalise(JsonNode node) {
        if (node.isMissingNode()) {
            return com.fasterxml.jackson.databind.node.NullNode.getInstance();
        }
        if (node.isNumber()) {
            return Documents.jsonMapper().getNodeFactory().numberNode(node.decimalValue().stripTrailingZeros());
        }
        if (node.isObject()) {
            ObjectNode copy = Documents.jsonMapper().createObjectNode();
            node.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    copy.set(e.getKey(), normalise(e.getValue()));
                }
            });
            return copy;
        }
        if (node.isArray()) {
            var copy = Documents.jsonMapper().createArrayNode();
            node.forEach(item -> copy.add(normalise(item)));
            return copy;
        }
        return node;
    }
}
