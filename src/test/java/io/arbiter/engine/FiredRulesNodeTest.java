package io.arbiter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.Test;

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
        assertEquals(Documents.yamlMapper().writeValueAsString(plain), Documents.yamlMapper().writeValueAsString(response));
        assertEquals(plain.toString(), response.toString());
        assertEquals(plain.toPrettyString(), response.toPrettyString());
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
