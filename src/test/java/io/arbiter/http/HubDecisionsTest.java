package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.catalog.Catalog;
import io.arbiter.catalog.ManifestLoader;
import io.arbiter.decision.Settings;
import io.arbiter.document.Documents;
import io.arbiter.document.JsonSchemas;
import io.arbiter.model.Implementation;
import io.arbiter.model.Quantifier;
import io.arbiter.model.Ref;
import io.arbiter.model.Requirement;
import io.arbiter.model.RequirementGroup;
import io.arbiter.model.TypeInstance;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decisions over HTTP with {@code --hub} set to the public Capact Hub manifests: every Interface revision and every
 * Implementation is decided under an action policy derived from the catalog, with the TypeInstances it needs.
 */
class HubDecisionsTest {

    private static final String TOKEN = "test-admin-token";
    private static final String PATH = "/v1/decisions/implementation";
    private static final String POSTGRES = "cap.interface.database.postgresql.install";
    private static final String RDS = "cap.implementation.aws.rds.postgresql.install";
    /** AWS credentials in the embedded TypeInstance store, which this server uses. */
    private static final String AWS_CREDENTIALS = "517cf827-233c-4bf1-8fc9-48534424dd58";

    private static ArbiterServer server;
    private static HttpTestClient client;
    private static Catalog catalog;

    @BeforeAll
    static void start() throws Exception {
        var hub = Fixtures.requireHubManifests();
        catalog = ManifestLoader.load(hub).catalog();
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withHubDir(hub), TOKEN,
                        java.time.Duration.ofMillis(200)))
                .toCompletionStage().toCompletableFuture().get();
        client = new HttpTestClient(server.port());
        // No global rules: each request brings the policy it is decided under.
        var put = client.send("PUT", "/v1/policy", "application/yaml", "interface: {rules: []}\n".getBytes(),
                "Authorization", "Bearer " + TOKEN);
        assertEquals(200, put.status(), put.body());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
    }

    private static String rdsRequest(String parameters) {
        return """
                {"interface": {"path": "%s", "revision": "0.1.0"},
                 "actionPolicy": {"interface": {"rules": [{
                   "interface": {"path": "%s"},
                   "oneOf": [{"implementationConstraints": {"path": "%s"},
                              "inject": {"requiredTypeInstances": [{"id": "%s"}],
                                         "additionalParameters": [{"name": "additional-parameters", "value": %s}]}}]}]}}}
                """.formatted(POSTGRES, POSTGRES, RDS, AWS_CREDENTIALS, parameters);
    }

    @Test
    void awsRdsIsSelectedThoughItsInputSchemaUsesDraft04Ids() {
        var response = client.postJson(PATH, rdsRequest("{\"region\": \"eu-west-1\", \"publicly_accessible\": true}"));

        assertEquals(200, response.status(), response.body());
        assertEquals("SELECTED", response.json().path("outcome").asText());
        assertEquals(RDS, response.json().path("selected").path("path").asText());
        assertEquals("eu-west-1", response.json().path("inject").path("additionalParameters").get(0)
                .path("value").path("region").asText());
    }

    @Test
    void awsRdsParametersThatFailItsInputSchemaAre422AtTheParameter() {
        var response = client.postJson(PATH, rdsRequest("{\"region\": 42}"));

        assertEquals(422, response.status(), response.body());
        assertEquals("INVALID_POLICY", response.errorCode());
        String body = response.body();
        assertTrue(body.contains("$.actionPolicy.interface.rules[0].oneOf[0].inject.additionalParameters[0]"), body);
        assertTrue(body.contains("cap.type.aws.rds.postgresql.install-input:0.1.0"), body);
        assertTrue(body.contains("$.region"), body);
    }

    /**
     * One request per Implementation (constrained to its path) and one per Interface revision nothing implements.
     * The action policy and the request's TypeInstances give each Implementation what its spec asks for.
     */
    @Test
    void everyHubInterfaceAndImplementationIsDecidedWithoutAServerError() {
        Map<Ref, List<Implementation>> byInterface = new TreeMap<>(Comparator.comparing(Ref::path)
                .thenComparing(Ref::revision));
        catalog.interfaces().forEach(ref -> byInterface.putIfAbsent(ref, new ArrayList<>()));
        for (Implementation implementation : catalog.implementations()) {
            implementation.implementsRefs().forEach(ref ->
                    byInterface.computeIfAbsent(ref, r -> new ArrayList<>()).add(implementation));
        }

        // Two pairs of Hub manifests share a path and revision (aws and bitnami redis, both "cap.implementation.aws.redis.install";
        // the two validation "own" installs). Decisions join an Implementation's requirements by that key, so neither of
        // a pair can be selected alone: for those only the absence of a server error is asserted.
        Map<String, Long> keys = catalog.implementations().stream()
                .collect(java.util.stream.Collectors.groupingBy(Implementation::key, java.util.stream.Collectors.counting()));
        Map<String, Integer> outcomes = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int decisions = 0;
        for (var entry : byInterface.entrySet()) {
            List<Implementation> implementations = entry.getValue();
            List<Implementation> each = implementations.isEmpty() ? java.util.Collections.singletonList(null) : implementations;
            for (Implementation implementation : each) {
                decisions++;
                var response = client.postJson(PATH, request(entry.getKey(), implementation).toString());
                String label = entry.getKey() + (implementation == null ? "" : " by " + implementation.key());
                if (response.status() >= 500) {
                    failures.add(label + ": " + response.status() + " " + response.body());
                    continue;
                }
                if (implementation != null && keys.get(implementation.key()) > 1) {
                    outcomes.merge("duplicate key, " + outcomeOf(response), 1, Integer::sum);
                    continue;
                }
                String outcome = outcomeOf(response);
                outcomes.merge(outcome, 1, Integer::sum);
                boolean expected = implementation == null ? outcome.equals("NO_MATCH")
                        : outcome.equals("SELECTED") && response.json().path("selected").path("path").asText().equals(implementation.path());
                if (!expected) {
                    failures.add(label + ": " + outcome + " " + (response.status() == 200 ? "" : response.body()));
                }
            }
        }
        System.out.printf("Hub decisions: %d Interface revisions, %d decisions, outcomes %s%n",
                byInterface.size(), decisions, outcomes);

        assertEquals(List.of(), failures);
        assertEquals(catalog.interfaces().size(), byInterface.size(), "every Implementation implements a Hub Interface");
    }

    private static String outcomeOf(HttpTestClient.Response response) {
        return response.status() == 200 ? response.json().path("outcome").asText() : response.status() + " " + response.errorCode();
    }

    /** The request deciding {@code interfaceRef} so that {@code implementation} (null: any) is the one selected. */
    private static ObjectNode request(Ref interfaceRef, Implementation implementation) {
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.putObject("interface").put("path", interfaceRef.path()).put("revision", interfaceRef.revision());
        ObjectNode rule = request.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", interfaceRef.path()).put("revision", interfaceRef.revision());
        ObjectNode item = rule.putArray("oneOf").addObject();
        ObjectNode constraints = item.putObject("implementationConstraints");
        ArrayNode typeInstances = request.putArray("typeInstances");
        if (implementation == null) {
            return request;
        }
        constraints.put("path", implementation.path());
        ObjectNode inject = item.putObject("inject");
        ArrayNode required = inject.putArray("requiredTypeInstances");
        for (Requirement requirement : neededRequirements(implementation)) {
            String id = addFixture(typeInstances, requirement.typeRef());
            if (requirement.alias() != null) {
                required.addObject().put("id", id);
            }
        }
        ArrayNode parameters = inject.putArray("additionalParameters");
        implementation.additionalParameters().forEach((name, type) ->
                parameters.addObject().put("name", name).set("value", validValue(type)));
        ArrayNode additional = inject.putArray("additionalTypeInstances");
        implementation.additionalTypeInstances().forEach((name, type) ->
                additional.addObject().put("name", name).put("id", addFixture(typeInstances, type)));
        return request;
    }

    /** Every allOf item, the first item of each anyOf group, and one item of each oneOf group the platform does not already satisfy. */
    private static List<Requirement> neededRequirements(Implementation implementation) {
        Set<Ref> platform = new LinkedHashSet<>(Settings.DEFAULT_PLATFORM.stream().map(TypeInstance::typeRef).toList());
        List<Requirement> needed = new ArrayList<>();
        for (RequirementGroup group : implementation.requirementGroups()) {
            List<Requirement> members = implementation.requirements().stream()
                    .filter(r -> r.groupPrefix().equals(group.prefix()) && r.quantifier() == group.quantifier()).toList();
            if (group.quantifier() == Quantifier.ALL_OF) {
                needed.addAll(members);
            } else if (members.stream().noneMatch(r -> platform.contains(r.typeRef()))) {
                needed.add(members.get(0));
            }
        }
        return needed;
    }

    private static String addFixture(ArrayNode typeInstances, Ref type) {
        String id = "fixture:" + type;
        for (JsonNode existing : typeInstances) {
            if (existing.path("id").asText().equals(id)) {
                return id;
            }
        }
        ObjectNode instance = typeInstances.addObject().put("id", id);
        instance.putObject("typeRef").put("path", type.path()).put("revision", type.revision());
        return id;
    }

    /** A value the Type's schema accepts: one of its examples, its default, or an empty object. */
    private static JsonNode validValue(Ref type) {
        var schema = catalog.schema(type);
        List<JsonNode> candidates = new ArrayList<>();
        catalog.type(type).map(t -> t.jsonSchema()).ifPresent(raw -> {
            raw.path("examples").forEach(candidates::add);
            if (raw.has("default")) {
                candidates.add(raw.get("default"));
            }
        });
        candidates.add(Documents.jsonMapper().createObjectNode());
        return candidates.stream()
                .filter(value -> schema.isEmpty() || JsonSchemas.problems(schema.get(), value).isEmpty())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no example of " + type + " passes its own schema"));
    }
}
