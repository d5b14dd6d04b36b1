package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;

/** Additional parameter values may hold secrets: the log keeps their names and masks their values. */
public final class Masking {

    public static final String MASK = "***";
    private static final String FIRED_RULES = "firedRules";

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

    /**
     * Whether {@code tree} has an {@code additionalParameters} entry to mask. Fired rules hold rule ids and fact ids
     * only: they are not searched (a response's largest part).
     */
    public static boolean hasParameterValues(JsonNode node) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().equals("additionalParameters") && field.getValue().isArray()) {
                    if (!field.getValue().isEmpty()) {
                        return true;
                    }
                } else if (!field.getKey().equals(FIRED_RULES) && hasParameterValues(field.getValue())) {
                    return true;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                if (hasParameterValues(element)) {
                    return true;
                }
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
                } else if (!field.getKey().equals(FIRED_RULES)) {
                    mask(field.getValue());
                }
            });
        } else if (node.isArray()) {
            node.forEach(Masking::mask);
        }
    }
}
