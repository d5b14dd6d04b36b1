package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.document.Documents;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.Fixtures;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The matching rule of {@code rules/implementation/20-matching.drl} states every condition of policy-syntax section 3
 * in one rule, so that a decision derives no fact per rejected pair; the explain rules state each condition again, one
 * reason per rule. Over generated Implementations (attributes; allOf, anyOf and oneOf requirements, some aliased),
 * TypeInstances and Action-policy items (path, attribute and requires constraints, injected ids, some unknown to the
 * store), the two agree: an Implementation an item tried is matched exactly when no reason rejects it, and explaining
 * does not change the decision.
 */
class MatchingExplanationPropertiesTest {

    /** A global policy without defaults to inject: the request's TypeInstances are the whole store. */
    private static final Decisions DECISIONS = Fixtures.decisions(Fixtures.snapshot(Fixtures.policy("interface: {rules: []}")));
    private static final String INTERFACE = "cap.interface.database.postgresql.install";
    private static final List<String> TYPES = List.of("a", "b", "c");
    private static final List<String> ATTRIBUTES = List.of("cap.attribute.x", "cap.attribute.y");
    private static final List<String> QUANTIFIERS = List.of("allOf", "anyOf", "oneOf");
    private static final String UNKNOWN_ID = "00000000-0000-4000-8000-0000000000ff";

    record Requirement(String quantifier, String type, boolean aliased) {
    }

    record Implementation(Set<String> attributes, List<Requirement> requires) {
    }

    /** {@code pathOf}: the index of the Implementation whose path the item constrains, or -1 for none. */
    record Item(int pathOf, Set<String> attributes, Set<String> requires, Set<String> injects) {
    }

    record World(List<Implementation> implementations, Set<String> available, List<Item> items) {
    }

    @Property(tries = 300)
    void anImplementationIsMatchedExactlyWhenNoReasonRejectsIt(@ForAll("worlds") World world) {
        JsonNode explained = decide(world, true);
        JsonNode plain = decide(world, false);

        // a property that only ever saw NO_MATCH would say nothing about the matching rule
        Statistics.collect(explained.path("outcome").asText());
        Statistics.coverage(coverage -> {
            coverage.check("SELECTED").percentage(percent -> percent > 20);
            coverage.check("NO_MATCH").percentage(percent -> percent > 20);
        });
        assertEquals(plain.path("outcome"), explained.path("outcome"), "explaining does not change the outcome");
        assertEquals(plain.path("rule"), explained.path("rule"));
        assertEquals(plain.path("selected"), explained.path("selected"));
        JsonNode items = explained.path("explanation");
        assertEquals(world.items().size(), items.size(), "every item of the rule is explained: " + explained);
        for (JsonNode item : items) {
            Set<JsonNode> matched = new HashSet<>();
            item.path("matched").forEach(matched::add);
            Set<JsonNode> rejected = new HashSet<>();
            for (JsonNode rejection : item.path("rejected")) {
                rejected.add(rejection.path("implementation"));
                assertFalse(rejection.path("reasons").isEmpty(), "a rejection has a reason: " + item);
                assertFalse(matched.contains(rejection.path("implementation")), "matched and rejected: " + item);
            }
            assertEquals(item.path("tried").asInt(), matched.size() + rejected.size(),
                    "every Implementation tried is matched or rejected: " + item);
        }
        if (explained.path("outcome").asText().equals("SELECTED")) {
            JsonNode winner = items.get(explained.path("rule").path("oneOfIndex").asInt());
            assertTrue(winner.path("matched").toString().contains(explained.path("selected").path("path").asText()),
                    "the selected Implementation is one the winning item matched: " + explained);
        }
    }

    private static JsonNode decide(World world, boolean explain) {
        try {
            return DECISIONS.decide("implementation", Fixtures.json(request(world, explain)), "application/json");
        } catch (DecisionException e) {
            // two injected TypeInstances on the winner's alias, say: a 422 explains nothing
            Assume.that(false);
            throw e;
        }
    }

    // ---- the request a world makes ----

    private static ObjectNode request(World world, boolean explain) {
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.putObject("interface").put("path", INTERFACE).put("revision", "0.1.0");
        request.put("explain", explain);
        ArrayNode typeInstances = request.putArray("typeInstances");
        for (String type : world.available()) {
            typeInstances.addObject().put("id", idOf(type)).putObject("typeRef")
                    .put("path", "cap.type.example." + type).put("revision", "0.1.0");
        }
        ArrayNode implementations = request.putArray("implementations");
        for (int i = 0; i < world.implementations().size(); i++) {
            implementations.add(manifest(i, world.implementations().get(i)));
        }
        ObjectNode rule = request.putObject("actionPolicy").putObject("interface").putArray("rules").addObject();
        rule.putObject("interface").put("path", INTERFACE);
        ArrayNode oneOf = rule.putArray("oneOf");
        for (Item item : world.items()) {
            ObjectNode entry = oneOf.addObject();
            ObjectNode constraints = entry.putObject("implementationConstraints");
            if (item.pathOf() >= 0 && item.pathOf() < world.implementations().size()) {
                constraints.put("path", pathOf(item.pathOf()));
            }
            if (!item.attributes().isEmpty()) {
                ArrayNode attributes = constraints.putArray("attributes");
                item.attributes().forEach(path -> attributes.addObject().put("path", path).put("revision", "0.1.0"));
            }
            if (!item.requires().isEmpty()) {
                ArrayNode requires = constraints.putArray("requires");
                item.requires().forEach(type -> requires.addObject().put("path", "cap.type.example." + type));
            }
            if (!item.injects().isEmpty()) {
                ArrayNode injected = entry.putObject("inject").putArray("requiredTypeInstances");
                item.injects().forEach(type -> injected.addObject().put("id", type.equals("unknown") ? UNKNOWN_ID : idOf(type)));
            }
        }
        return request;
    }

    private static ObjectNode manifest(int index, Implementation implementation) {
        ObjectNode manifest = Documents.jsonMapper().createObjectNode();
        manifest.put("ocfVersion", "0.0.1").put("revision", "0.1.0").put("kind", "Implementation");
        ObjectNode metadata = manifest.putObject("metadata");
        metadata.put("prefix", "cap.implementation.example.impl" + index).put("name", "install");
        ObjectNode attributes = metadata.putObject("attributes");
        implementation.attributes().forEach(path -> attributes.putObject(path).put("revision", "0.1.0"));
        ObjectNode spec = manifest.putObject("spec");
        spec.putArray("implements").addObject().put("path", INTERFACE).put("revision", "0.1.0");
        ObjectNode byQuantifier = spec.putObject("requires").putObject("cap.type.example");
        for (Requirement requirement : implementation.requires()) {
            ArrayNode items = byQuantifier.has(requirement.quantifier()) ? (ArrayNode) byQuantifier.get(requirement.quantifier())
                    : byQuantifier.putArray(requirement.quantifier());
            ObjectNode item = items.addObject().put("name", requirement.type()).put("revision", "0.1.0");
            if (requirement.aliased()) {
                item.put("alias", "alias-" + requirement.type());
            }
        }
        if (byQuantifier.isEmpty()) {
            spec.remove("requires");
        }
        return manifest;
    }

    private static String pathOf(int index) {
        return "cap.implementation.example.impl" + index + ".install";
    }

    private static String idOf(String type) {
        return "00000000-0000-4000-8000-00000000000" + (TYPES.indexOf(type) + 1);
    }

    // ---- generated worlds ----

    @Provide
    Arbitrary<World> worlds() {
        Arbitrary<Set<String>> types = Arbitraries.of(TYPES).set().ofMaxSize(TYPES.size());
        Arbitrary<Requirement> requirement = Combinators.combine(Arbitraries.of(QUANTIFIERS), Arbitraries.of(TYPES),
                Arbitraries.of(true, false)).as(Requirement::new);
        Arbitrary<Implementation> implementation = Combinators.combine(
                Arbitraries.of(ATTRIBUTES).set().ofMaxSize(ATTRIBUTES.size()),
                requirement.list().ofMaxSize(4).filter(MatchingExplanationPropertiesTest::oneEntryPerTypeAndQuantifier))
                .as(Implementation::new);
        Arbitrary<Set<String>> injects = Arbitraries.of("a", "b", "c", "unknown").set().ofMaxSize(2);
        Arbitrary<Item> item = Combinators.combine(Arbitraries.integers().between(-1, 3),
                Arbitraries.of(ATTRIBUTES).set().ofMaxSize(1), types.map(set -> set.size() > 1 ? Set.<String>of() : set), injects)
                .as(Item::new);
        return Combinators.combine(implementation.list().ofMinSize(1).ofMaxSize(4), types, item.list().ofMinSize(1).ofMaxSize(3))
                .as(World::new);
    }

    /** A manifest lists a Type once per quantifier, as Hub manifests do. */
    private static boolean oneEntryPerTypeAndQuantifier(List<Requirement> requirements) {
        List<String> keys = new ArrayList<>();
        requirements.forEach(r -> keys.add(r.quantifier() + "/" + r.type()));
        return new HashSet<>(keys).size() == keys.size();
    }
}
