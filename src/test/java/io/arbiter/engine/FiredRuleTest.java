package io.arbiter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A fired rule as responses and the decision log show it, and back. */
class FiredRuleTest {

    @Test
    void aFiredRuleRendersItsRuleOrderAndFactsAndReadsBack() throws Exception {
        FiredRule fired = new FiredRule("io.arbiter.rules.x.A \"quoted\" rule", 3,
                List.of("interface cap.interface.a:0.1.0", "policy global"));

        JsonNode tree = Documents.jsonMapper().valueToTree(fired);

        assertEquals(Documents.jsonMapper().readTree("""
                {"rule": "io.arbiter.rules.x.A \\"quoted\\" rule", "order": 3, "facts": ["interface cap.interface.a:0.1.0", "policy global"]}
                """), tree);
        assertEquals(List.of("rule", "order", "facts"), List.copyOf(iterate(tree.fieldNames())));
        assertEquals(fired, Documents.jsonMapper().treeToValue(tree, FiredRule.class));
    }

    private static List<String> iterate(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
