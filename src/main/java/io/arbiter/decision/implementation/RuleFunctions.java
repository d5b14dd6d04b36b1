package io.arbiter.decision.implementation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import io.arbiter.document.JsonSchemas;
import io.arbiter.model.Implementation;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Mechanics the rules call: comparing candidates, deep-merging JSON values, checking a value against a schema.
 * Which values take part and which one wins is decided by the rules that call these.
 */
public final class RuleFunctions {

    private RuleFunctions() {
    }

    /** True when {@code a} is listed before {@code b}: path ascending, then revision descending. */
    public static boolean candidateBefore(Implementation a, Implementation b) {
        return ImplementationDecider.CANDIDATE_ORDER.compare(a, b) < 0;
    }

    /** Deep-merges the values of one additional parameter; a lower rank (higher policy) wins per key. */
    public static JsonNode deepMergeByRank(Collection<ImplementationFacts.OfferedParameter> offered) {
        List<ImplementationFacts.OfferedParameter> lowestFirst = offered.stream()
                .sorted(Comparator.comparing(ImplementationFacts.OfferedParameter::rank).reversed()).toList();
        JsonNode merged = null;
        for (ImplementationFacts.OfferedParameter parameter : lowestFirst) {
            merged = merge(merged, parameter.entry().value());
        }
        return merged;
    }

    private static JsonNode merge(JsonNode lower, JsonNode higher) {
        if (lower == null || !lower.isObject() || !higher.isObject()) {
            return higher.deepCopy();
        }
        ObjectNode result = ((ObjectNode) lower).deepCopy();
        higher.fields().forEachRemaining(field -> result.set(field.getKey(), merge(result.get(field.getKey()), field.getValue())));
        return result;
    }

    /** The schema violations of {@code value}, one sentence each; empty when it conforms. */
    public static String violations(JsonSchema schema, JsonNode value) {
        return JsonSchemas.problems(schema, value).stream().map(p -> p.path() + ": " + p.problem())
                .collect(Collectors.joining("; "));
    }
}
