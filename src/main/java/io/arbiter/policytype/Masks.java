package io.arbiter.policytype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * Where a policy type's requests and responses carry values the decision log must not keep in clear (additional
 * parameters may hold secrets), as paths of fields: {@code inject.additionalParameters[].value}, where {@code name[]}
 * is each element of the array {@code name}. The log masks them unless {@code serve --log-parameters}.
 */
public record Masks(List<String> request, List<String> response) {

    public static final String MASK = "***";
    public static final Masks NONE = new Masks(List.of(), List.of());

    public Masks {
        request = List.copyOf(request);
        response = List.copyOf(response);
    }

    /** {@code tree} itself when none of its request paths holds a value, else a copy with each masked. */
    public JsonNode maskRequest(JsonNode tree) {
        return masked(tree, request);
    }

    /** {@code tree} itself when none of its response paths holds a value, else a copy with each masked. */
    public JsonNode maskResponse(JsonNode tree) {
        return masked(tree, response);
    }

    /** Whether a logged request had values masked: one of the request paths holds {@link #MASK}. */
    public boolean requestWasMasked(JsonNode tree) {
        boolean[] masked = {false};
        request.forEach(path -> visit(tree, path.split("\\."), 0,
                (parent, field) -> masked[0] |= MASK.equals(parent.path(field).textValue())));
        return masked[0];
    }

    private static JsonNode masked(JsonNode tree, List<String> paths) {
        boolean[] any = {false};
        paths.forEach(path -> visit(tree, path.split("\\."), 0, (parent, field) -> any[0] = true));
        if (!any[0]) {
            return tree;
        }
        JsonNode copy = tree.deepCopy();
        paths.forEach(path -> visit(copy, path.split("\\."), 0, (parent, field) -> parent.set(field, TextNode.valueOf(MASK))));
        return copy;
    }

    /** Calls {@code leaf} with the object and field name of each value at {@code segments}, from {@code at}. */
    private static void visit(JsonNode node, String[] segments, int at, BiConsumer<ObjectNode, String> leaf) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        String segment = segments[at];
        if (at == segments.length - 1) {
            if (object.has(segment)) {
                leaf.accept(object, segment);
            }
        } else if (segment.endsWith("[]")) {
            object.path(segment.substring(0, segment.length() - 2)).forEach(element -> visit(element, segments, at + 1, leaf));
        } else {
            visit(object.get(segment), segments, at + 1, leaf);
        }
    }
}
