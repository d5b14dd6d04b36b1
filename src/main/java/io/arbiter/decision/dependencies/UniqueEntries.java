package io.arbiter.decision.dependencies;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.DecisionException;
import io.arbiter.document.Nodes;
import io.arbiter.document.Problem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A dependencies request names each policy and each policy set once: a dependency on a policy listed twice would
 * be judged by a guess at which entry counts (the observed objects are held to the same, in {@link DependenciesDecider}).
 */
final class UniqueEntries {

    private UniqueEntries() {
    }

    /** Throws a 400 naming both entries' paths when a policy or a policy set (namespace and name) is listed twice. */
    static void require(JsonNode body) {
        List<Problem> problems = new ArrayList<>();
        duplicates(body.path("policies"), "$.policies", "policy", problems);
        duplicates(body.path("policySets"), "$.policySets", "policy set", problems);
        if (!problems.isEmpty()) {
            throw new DecisionException(DecisionException.Code.INVALID_REQUEST,
                    "the dependencies request is invalid: " + problems.get(0), problems);
        }
    }

    private static void duplicates(JsonNode list, String path, String what, List<Problem> problems) {
        List<JsonNode> entries = Nodes.items(list);
        Map<String, Integer> first = new HashMap<>(entries.size() * 4 / 3 + 1);
        for (int i = 0; i < entries.size(); i++) {
            String namespace = entries.get(i).path("namespace").asText("");
            String name = entries.get(i).path("name").asText("");
            Integer earlier = first.putIfAbsent(namespace + "/" + name, i);
            if (earlier != null) {
                problems.add(Problem.at(path + "[" + i + "]", what + " " + namespace + "/" + name + " is listed already, as "
                        + path + "[" + earlier + "]: list each " + what + " once"));
            }
        }
    }
}
