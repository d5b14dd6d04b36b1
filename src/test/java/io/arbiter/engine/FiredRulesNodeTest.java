package io.arbiter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A response's firedRules: an array node over the firings that reads, writes and compares as the plain tree would. */
class FiredRulesNodeTest {

    private static final List<FiredRule> FIRED = List.of(
            new FiredRule(RuleName.of("io.arbiter.rules.x", "First"), 1, List.of("interface a:0.1.0")),
            new FiredRule(RuleName.of("io.arbiter.rules.x", "A \"quoted\" rule"), 2,
                    List.of("policy global", "implementation b:1.0.0")),
            new FiredRule(RuleName.of("io.arbiter.rules.y", "No facts"), 3, List.of()));

    @Test
    void itWritesExactlyWhatThePlainTreeWrites() throws Exception {
        ObjectNode response = JsonNodeFactory.instance.objectNode().put("outcome", "SELECTED");
        response.set("firedRules", FiredRulesNode.of(FIRED));
        ObjectNode plain = JsonNodeFactory.instance.objectNode().put("outcome", "SELECTED");
        plain.set("firedRules", plainTree(FIRED));

        assertEquals(Documents.jsonMapper().writeValueAsString(plain), Documents.jsonMapper().writeValueAsString(response));
        assertEquals(Documents.jsonMapper().writeValueAsString(plain),
                new String(Documents.jsonMapper().writeValueAsBytes(response), StandardCharsets.UTF_8));
        assertEquals(Documents.yamlMapper().writeValueAsString(plain), Documents.yamlMapper().writeValueAsString(response));
        assertEquals(plain.toString(), response.toString());
        assertEquals(plain.toPrettyString(), response.toPrettyString());
    }

    /**
     * As the recorder keeps them: fact ids shared between firings, escaped once. Ids that need escaping (quotes,
     * backslashes, control and non-ASCII characters) and orders past the pre-encoded ones must come out as the
     * generator would write them.
     */
    @Test
    void recordedFactIdsWriteExactlyWhatThePlainTreeWrites() throws Exception {
        FactIds.Id shared = new FactIds.Id("interface \"a\":0.1.0");
        List<FiredRule> fired = List.of(
                new FiredRule(RuleName.of("io.arbiter.rules.x", "First"), 1,
                        new FactIds(new FactIds.Id[] {shared, new FactIds.Id("policy \\global\\ \t tab")})),
                new FiredRule(RuleName.of("io.arbiter.rules.x", "Zweite Regel für Übergänge"), 1_023,
                        new FactIds(new FactIds.Id[] {new FactIds.Id("typeInstance ü-€-😀"), shared})),
                new FiredRule(RuleName.of("io.arbiter.rules.y", "Late"), 1_024,
                        new FactIds(new FactIds.Id[] {new FactIds.Id("\u0001 control"), new FactIds.Id(""),
                                new FactIds.Id("path C:\\dir")})),
                new FiredRule(RuleName.of("io.arbiter.rules.y", "Later"), 123_456, new FactIds(new FactIds.Id[0])));
        ObjectNode response = JsonNodeFactory.instance.objectNode().put("outcome", "SELECTED");
        response.set("firedRules", FiredRulesNode.of(fired));
        ObjectNode plain = JsonNodeFactory.instance.objectNode().put("outcome", "SELECTED");
        plain.set("firedRules", plainTree(fired));

        String written = new String(Documents.jsonMapper().writeValueAsBytes(response), StandardCharsets.UTF_8);

        assertEquals(Documents.jsonMapper().writeValueAsString(plain), written);
        assertEquals(written, Documents.jsonMapper().writeValueAsString(response));
        assertEquals(plain, Documents.jsonMapper().readTree(written));
        assertEquals("interface \"a\":0.1.0", Documents.jsonMapper().readTree(written).at("/firedRules/1/facts/1").asText());
        assertEquals(Documents.yamlMapper().writeValueAsString(plain), Documents.yamlMapper().writeValueAsString(response));
        assertEquals(plain.toPrettyString(), response.toPrettyString());
        assertEquals(List.of("interface \"a\":0.1.0", "policy \\global\\ \t tab"), fired.get(0).facts());
    }

    /**
     * A large decision's firings are longer than the generator's buffer, so they bypass it; the fields and documents
     * after them must still be separated as the generator would.
     */
    @Test
    void firingsLongerThanTheGeneratorsBufferWriteExactlyWhatThePlainTreeWrites() throws Exception {
        List<FiredRule> fired = new ArrayList<>();
        for (int order = 1; order <= 2_000; order++) {
            fired.add(new FiredRule(RuleName.of("io.arbiter.rules.large", "Rule " + order % 7), order,
                    List.of("template t" + order, "cluster \"c\" " + order % 3)));
        }
        ObjectNode response = JsonNodeFactory.instance.objectNode().put("outcome", "DECIDED");
        response.set("firedRules", FiredRulesNode.of(fired));
        response.put("after", "the firings");
        ObjectNode plain = JsonNodeFactory.instance.objectNode().put("outcome", "DECIDED");
        plain.set("firedRules", plainTree(fired));
        plain.put("after", "the firings");

        byte[] written = Documents.jsonMapper().writeValueAsBytes(List.of(response, response));

        assertTrue(written.length > 200_000, "longer than any generator buffer: " + written.length);
        assertEquals(Documents.jsonMapper().writeValueAsString(List.of(plain, plain)), new String(written, StandardCharsets.UTF_8));
    }

    /** The decision log writes each firing's rule, order and facts: its readers split rule into package and name. */
    @Test
    void withoutNameAndPackageEachFiringIsRuleOrderAndFacts() throws Exception {
        var out = new java.io.ByteArrayOutputStream();
        try (var json = Documents.jsonMapper().createGenerator(out)) {
            json.writeStartObject();
            json.writeFieldName("firedRules");
            FiredRulesNode.of(FIRED).write(json, false);
            json.writeNumberField("durationMicros", 12);
            json.writeEndObject();
        }

        assertEquals("{\"firedRules\":[{\"rule\":\"io.arbiter.rules.x.First\",\"order\":1,\"facts\":[\"interface a:0.1.0\"]},"
                + "{\"rule\":\"io.arbiter.rules.x.A \\\"quoted\\\" rule\",\"order\":2,"
                + "\"facts\":[\"policy global\",\"implementation b:1.0.0\"]},"
                + "{\"rule\":\"io.arbiter.rules.y.No facts\",\"order\":3,\"facts\":[]}],\"durationMicros\":12}",
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void itReadsAsAnArrayOfFiringObjects() {
        FiredRulesNode node = FiredRulesNode.of(FIRED);

        assertTrue(node.isArray());
        assertEquals(3, node.size());
        assertEquals("io.arbiter.rules.x.A \"quoted\" rule", node.get(1).path("rule").asText());
        assertEquals("implementation b:1.0.0", node.path(1).path("facts").get(1).asText());
        List<Integer> orders = new ArrayList<>();
        node.forEach(element -> orders.add(element.path("order").asInt()));
        assertEquals(List.of(1, 2, 3), orders);
        assertEquals(List.of("First", "A \"quoted\" rule", "No facts"), node.findValuesAsText("name"));
        assertEquals(plainTree(FIRED), node);
        assertEquals(node, plainTree(FIRED));
        assertEquals(plainTree(FIRED).hashCode(), node.hashCode());
    }

    @Test
    void itParsesBackToThePlainTree() throws Exception {
        JsonNode parsed = Documents.jsonMapper().readTree(Documents.jsonMapper().writeValueAsBytes(FiredRulesNode.of(FIRED)));

        assertEquals(plainTree(FIRED), parsed);
    }

    @Test
    void theRecordOfFiringsCannotBeChanged() {
        FiredRulesNode node = FiredRulesNode.of(new ArrayList<>(FIRED));

        assertThrows(UnsupportedOperationException.class, () -> node.add("another"));
        assertThrows(UnsupportedOperationException.class, () -> node.remove(0));
        assertThrows(UnsupportedOperationException.class, node::removeAll);
        assertSame(node, node.deepCopy());
        assertEquals(FIRED, node.firedRules());
    }

    @Test
    void itKeepsItsOwnCopyOfTheFirings() {
        List<FiredRule> fired = new ArrayList<>(FIRED);
        FiredRulesNode node = FiredRulesNode.of(fired);

        fired.clear();

        assertEquals(3, node.size());
    }

    private static ArrayNode plainTree(List<FiredRule> fired) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        fired.forEach(rule -> array.add(Documents.jsonMapper().<JsonNode>valueToTree(rule)));
        return array;
    }
}
