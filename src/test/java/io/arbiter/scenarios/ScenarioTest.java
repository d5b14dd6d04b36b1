package io.arbiter.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.catalog.TypeInstanceLoader;
import io.arbiter.catalog.TypeInstanceStore;
import io.arbiter.decision.DecisionException;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Evaluation;
import io.arbiter.suite.Expectations;
import io.arbiter.suite.RuleNames;
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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Evaluation evaluation = Evaluation.of(decisions, target, request);
        FIRED.addAll(evaluation.firedRules().stream().map(RuleTestSupport::name).toList());
        if (evaluation.refused()) {
            JsonNode error = evaluation.result().path("error");
            int status = error.path("code").asText().equals(DecisionException.Code.INVALID_POLICY.name()) ? 422 : 400;
            assertEquals(expectedStatus, status, name + ": unexpected error " + error);
            assertEquals(required(expect, "code", name), error.path("code").asText(), name);
            String mentions = required(expect, "mentions", name);
            String all = error.path("message").asText() + " " + error.path("details");
            assertTrue(all.contains(mentions), name + ": error should mention '" + mentions + "' but was " + all);
            return;
        }
        assertEquals(200, expectedStatus, name + ": expected an error but got " + evaluation.result());
        assertClusterLists(expect, evaluation.result(), name);
        for (JsonNode mention : expect.path("explanationMentions")) {
            assertTrue(evaluation.result().path("explanation").toString().contains(mention.asText()),
                    name + ": explanation should mention '" + mention.asText() + "': " + evaluation.result().path("explanation"));
        }
        ObjectNode fields = expect.deepCopy();
        fields.remove(List.of("status", "error", "explanationMentions"));
        fields.remove(CLUSTER_NAME_LISTS.keySet());
        List<String> mismatches = Expectations.mismatches(fields, evaluation, ruleNames(), true);
        assertTrue(mismatches.isEmpty(), name + ":\n  " + String.join("\n  ", mismatches));
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

    /** Rollout scenarios may give only the cluster names of a response list, in order ("Clusters" keys). */
    private static final Map<String, String> CLUSTER_NAME_LISTS = Map.of("toRolloutClusters", "toRollout",
            "timedOutClusters", "timedOut", "removedClusters", "removed");

    private static void assertClusterLists(JsonNode expect, ObjectNode actual, String name) {
        CLUSTER_NAME_LISTS.forEach((key, field) -> {
            if (expect.has(key)) {
                List<String> names = new ArrayList<>();
                actual.path(field).forEach(entry -> names.add(entry.path("cluster").asText()));
                List<String> expected = new ArrayList<>();
                expect.get(key).forEach(cluster -> expected.add(cluster.asText()));
                assertEquals(expected, names, name + ": clusters of '" + field + "'");
            }
        });
    }

    private static RuleNames ruleNames;

    /** The names of the project's rules: a scenario naming a rule that does not exist fails. */
    private static synchronized RuleNames ruleNames() {
        if (ruleNames == null) {
            ruleNames = RuleNames.of(Fixtures.snapshot(Fixtures.embeddedPolicy()).ruleBases().values());
        }
        return ruleNames;
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
}
