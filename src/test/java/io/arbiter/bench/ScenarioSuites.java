package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Converts the scenario files ({@code fixtures/scenarios/}) into one test suite ({@code OUT/suites/scenarios.json},
 * each test with its own policy under {@code OUT/policies/}), for measuring {@code arbiter test} on a realistic
 * suite. Scenarios with their own TypeInstance store are left out (a suite test has none); an expected error keeps
 * its code, and the rollout scenarios' cluster-name lists become lists of {@code {cluster: NAME}}.
 *
 * <pre>java -cp ... io.arbiter.bench.ScenarioSuites target/scenario-suites</pre>
 */
public final class ScenarioSuites {

    private static final Map<String, String> CLUSTER_NAME_LISTS = Map.of("toRolloutClusters", "toRollout",
            "timedOutClusters", "timedOut", "removedClusters", "removed");

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "target/scenario-suites");
        int[] counts = convert(Path.of("fixtures/scenarios"), out);
        System.out.println("converted " + counts[0] + " scenarios into " + out.resolve("suites/scenarios.json")
                + "; left out " + counts[1] + " with their own TypeInstance store");
    }

    /** Writes the suite; returns {converted, left out}. */
    public static int[] convert(Path scenarios, Path out) throws IOException {
        Files.createDirectories(out.resolve("suites"));
        Files.createDirectories(out.resolve("policies"));
        ObjectNode suite = Documents.jsonMapper().createObjectNode();
        ArrayNode tests = suite.putArray("tests");
        int skipped = 0;
        List<Path> files;
        try (Stream<Path> list = Files.list(scenarios)) {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path file : files) {
            JsonNode scenario = Documents.parseYaml(Files.readAllBytes(file)).tree();
            if (scenario.has("typeInstances")) {
                skipped++;
                continue;
            }
            String name = file.getFileName().toString().replaceFirst("\\.yaml$", "");
            Files.write(out.resolve("policies/" + name + ".json"), Documents.jsonMapper().writeValueAsBytes(scenario.path("policy")));
            ObjectNode test = tests.addObject();
            test.put("name", name);
            test.put("target", scenario.path("target").asText("implementation"));
            test.put("policy", "../policies/" + name + ".json");
            test.set("request", scenario.path("request"));
            test.set("expect", expect(scenario.path("expect")));
        }
        Documents.jsonMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("suites/scenarios.json").toFile(), suite);
        return new int[]{tests.size(), skipped};
    }

    private static ObjectNode expect(JsonNode scenarioExpect) {
        ObjectNode expect = scenarioExpect.deepCopy();
        expect.remove(List.of("status", "explanationMentions"));
        if (expect.has("error")) {
            String code = expect.path("error").path("code").asText();
            expect.putObject("error").put("code", code);
        }
        CLUSTER_NAME_LISTS.forEach((key, field) -> {
            if (expect.has(key)) {
                ArrayNode clusters = expect.putArray(field);
                expect.remove(key).forEach(cluster -> clusters.addObject().put("cluster", cluster.asText()));
            }
        });
        return expect;
    }
}
