package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bounded copy of an invalid document, for listing its problems. The schema validator makes a message for every
 * problem it finds and keeps them all: a 700 KB list of empty objects has 400,000 of them (170 MiB). The sample keeps
 * the document's first {@link #VALUES} values in document order; past them, arrays and objects are copied empty. A
 * container that lacks a member, or holds one that does, is <em>incomplete</em>: it may lack what the schema asks of
 * it, so only the problems a missing member cannot cause are believed there ({@link #believed}), and its size is its
 * size in the document ({@link #sizeInDocument}).
 */
final class SchemaSample {

    /** Values a sample keeps: a few hundred problems at most, in a few milliseconds. */
    static final int VALUES = 2_000;

    /** Problems an incomplete container has whatever its missing members are. */
    private static final Set<String> SOUND_WHEN_INCOMPLETE = Set.of("type", "additionalProperties", "maxItems", "maxProperties");

    final JsonNode tree;
    /** The incomplete containers of the sample, with their sizes in the document. */
    private final Map<JsonNode, Integer> incomplete = new IdentityHashMap<>();
    private int values = VALUES;
    /**
     * Members of the objects open when the values ran out, copied past them (containers empty): so that a list
     * later in the document is still there to be named when it is past its limit.
     */
    private int members = VALUES;

    SchemaSample(JsonNode document) {
        tree = copy(document);
    }

    /** The size in the document of an incomplete container of the sample; {@code null} for any other node. */
    Integer sizeInDocument(JsonNode node) {
        return incomplete.get(node);
    }

    /** Whether a problem the validator found at {@code node} of the sample is a problem of the document. */
    boolean believed(String type, JsonNode node) {
        return node == null || !incomplete.containsKey(node) || SOUND_WHEN_INCOMPLETE.contains(type);
    }

    private JsonNode copy(JsonNode node) {
        if (!node.isContainerNode()) {
            values--;
            return node;
        }
        if (values <= 0) {
            JsonNode empty = node.isObject() ? JsonNodeFactory.instance.objectNode() : JsonNodeFactory.instance.arrayNode();
            return kept(empty, node.size(), List.<JsonNode>of().iterator());
        }
        values--;
        if (node instanceof ObjectNode object) {
            ObjectNode copy = object.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext() && (values > 0 || members-- > 0)) {
                Map.Entry<String, JsonNode> field = fields.next();
                copy.set(field.getKey(), copy(field.getValue()));
            }
            return kept(copy, object.size(), copy.elements());
        }
        ArrayNode copy = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < node.size() && values > 0; i++) {
            copy.add(copy(node.get(i)));
        }
        return kept(copy, node.size(), copy.elements());
    }

    private JsonNode kept(JsonNode copy, int size, Iterator<JsonNode> members) {
        boolean complete = copy.size() == size;
        while (complete && members.hasNext()) {
            complete = !incomplete.containsKey(members.next());
        }
        if (!complete) {
            incomplete.put(copy, size);
        }
        return copy;
    }
}
