package io.arbiter.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A response's {@code firedRules}: a read-only JSON array over the recorded firings. Written straight from the
 * firings; an element is built as an object node only when someone reads it. A response is written once but
 * carries dozens of firings (thousands for a large decision), and the recent-decision index keeps a thousand
 * responses: building and keeping a tree per firing was most of what recording cost (AuditCostBenchmark).
 */
public final class FiredRulesNode extends ArrayNode {

    private final List<FiredRule> fired;

    public static FiredRulesNode of(List<FiredRule> fired) {
        return new FiredRulesNode(List.copyOf(fired));
    }

    private FiredRulesNode(List<FiredRule> fired) {
        super(JsonNodeFactory.instance, new Elements(fired));
        this.fired = fired;
    }

    /** The firings themselves, in firing order. */
    public List<FiredRule> firedRules() {
        return fired;
    }

    /** Read-only, so a copy can be the node itself. */
    @Override
    public FiredRulesNode deepCopy() {
        return this;
    }

    @Override
    public void serialize(JsonGenerator json, SerializerProvider provider) throws IOException {
        write(json, true);
    }

    /** Writes the firings; without {@code name} and {@code package} when {@code rule} is enough (the decision log). */
    public void write(JsonGenerator json, boolean nameAndPackage) throws IOException {
        json.writeStartArray(this, fired.size());
        for (FiredRule rule : fired) {
            FiredRule.Writer.write(rule, json, nameAndPackage);
        }
        json.writeEndArray();
    }

    /** One firing as the object node clients see: rule, name, package, order, facts. */
    static ObjectNode element(FiredRule rule) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("rule", rule.rule());
        node.put("name", rule.name());
        node.put("package", rule.packageName());
        node.put("order", rule.order());
        ArrayNode facts = node.putArray("facts");
        for (String fact : rule.facts()) {
            facts.add(fact);
        }
        return node;
    }

    /** The array's elements, each built when read (ArrayNode's mutators fail on it: the record of firings is final). */
    private static final class Elements extends AbstractList<JsonNode> implements RandomAccess {
        private final List<FiredRule> fired;

        Elements(List<FiredRule> fired) {
            this.fired = fired;
        }

        @Override
        public JsonNode get(int index) {
            return element(fired.get(index));
        }

        @Override
        public int size() {
            return fired.size();
        }
    }
}
