package io.arbiter.document;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Shape-safe walking of a tree whose shape a schema checks. Java that walks a tree next to (not after) its schema
 * check must not trust the shape: {@code size()} and {@code get(i)} of an object are its fields, not list items.
 */
public final class Nodes {

    private Nodes() {
    }

    /** The items of an array; none for any other node (the schema reports that it is not a list). */
    public static List<JsonNode> items(JsonNode node) {
        if (node == null || !node.isArray()) {
            return List.of();
        }
        List<JsonNode> items = new ArrayList<>(node.size());
        node.forEach(items::add);
        return items;
    }
}
