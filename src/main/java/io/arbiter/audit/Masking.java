package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Additional parameter values may hold secrets: the log keeps their names and masks their values. */
public final class Masking {

    public static final String MASK = "***";

    private Masking() {
    }

    /** A copy of {@code tree} in which every {@code additionalParameters[].value} is replaced by {@link #MASK}. */
    public static JsonNode maskParameters(JsonNode tree) {
        if (!hasParameterValues(tree)) {
            return tree;
        }
        JsonNode copy = tree.deepCopy();
        mask(copy);
        return copy;
    }

    private static boolean hasParameterValues(JsonNode tree) {
        for (JsonNode parameters : tree.findValues("additionalParameters")) {
            if (parameters.isArray() && !parameters.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static void mask(JsonNode node) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getKey().equals("additionalParameters") && field.getValue().isArray()) {
                    field.getValue().forEach(entry -> {
                        if (entry.isObject() && entry.has("value")) {
                            ((ObjectNode) entry).put("value", MASK);
                        }
                    });
                } else {
                    mask(field.getValue());
                }
            });
        } else if (node.isArray()) {
            node.forEach(Masking::mask);
        }
    }
}
