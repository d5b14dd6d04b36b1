package io.arbiter.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.engine.FiredRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One decision as the offline tools (test suites, impact analysis, replay) see it: what was decided, without the
 * fields that differ between two runs of the same decision (its id, the revisions it was made with, its firings),
 * or the contract's error body when the request was refused; and every rule that fired for it, in firing order.
 */
public record Evaluation(String target, ObjectNode result, List<FiredRule> firings) {

    /** Fields of a response that say how, when or for what it was decided, not what. */
    public static final Set<String> VOLATILE = Set.of("decisionId", "target", "type", "version", "firedRules", "phases",
            "snapshotRevision", "policyRevision", "rulesRevision", "catalogRevision", "typeInstancesRevision");

    public Evaluation {
        firings = List.copyOf(firings);
    }

    /** Decides {@code body} (JSON or YAML) for {@code target} with {@code decisions}; a refusal is a result too. */
    public static Evaluation of(Decisions decisions, String target, byte[] body) {
        ObjectNode response;
        try {
            response = decisions.decide(target, body, "application/yaml");
        } catch (RuntimeException e) {
            // the codes the service answers, from the one place that maps them
            Refusal refusal = Refusal.of(e).orElseThrow(() -> e);
            return refused(target, refusal.code().wire(), refusal.message(), refusal.problems());
        }
        List<FiredRule> firings = new ArrayList<>();
        for (JsonNode firing : response.path("firedRules")) {
            List<String> facts = new ArrayList<>();
            firing.path("facts").forEach(fact -> facts.add(fact.asText()));
            firings.add(new FiredRule(firing.path("rule").asText(), firings.size() + 1, facts));
        }
        response.remove(VOLATILE); // the decision's own tree: nobody else holds it
        return new Evaluation(target, response, firings);
    }

    private static Evaluation refused(String target, String code, String message, List<io.arbiter.document.Problem> problems) {
        ObjectNode result = Documents.jsonMapper().createObjectNode();
        ObjectNode error = result.putObject("error");
        error.put("code", code);
        error.put("message", message);
        error.set("details", Documents.jsonMapper().valueToTree(problems));
        return new Evaluation(target, result, List.of());
    }

    /** True when the request was refused: {@link #result} is the error body. */
    public boolean refused() {
        return result.has("error");
    }

    /** The decision's {@code outcome}, the error code of a refusal, or {@code DECIDED} for a kind without outcomes. */
    public String outcome() {
        return refused() ? result.path("error").path("code").asText() : result.path("outcome").asText("DECIDED");
    }

    /** The qualified names of the rules that fired, in firing order. */
    public List<String> firedRules() {
        return firings.stream().map(FiredRule::rule).toList();
    }

    /**
     * What was decided differently from {@code before}: each value that differs, by its path in the decision
     * ({@code outcome}, {@code backends[0].matchedBy}), before and after. Objects and lists of the same length are
     * compared member by member; a list that changed length is one change.
     */
    public Map<String, Change> changesFrom(Evaluation before) {
        Map<String, Change> changes = new LinkedHashMap<>();
        compare("", before.result, result, changes);
        return changes;
    }

    private static void compare(String path, JsonNode before, JsonNode after, Map<String, Change> changes) {
        if (before.equals(after)) {
            return;
        }
        if (before.isObject() && after.isObject()) {
            java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
            before.fieldNames().forEachRemaining(names::add);
            after.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                compare(path.isEmpty() ? name : path + "." + name, valueOf(before.get(name)), valueOf(after.get(name)), changes);
            }
        } else if (before.isArray() && after.isArray() && before.size() == after.size()) {
            for (int i = 0; i < before.size(); i++) {
                compare(path + "[" + i + "]", before.get(i), after.get(i), changes);
            }
        } else {
            changes.put(path, new Change(before, after));
        }
    }

    private static JsonNode valueOf(JsonNode node) {
        return node == null ? NullNode.getInstance() : node;
    }

    /**
     * The rules that fired more often in this decision than in {@code other}, each with how many times more, in this
     * decision's firing order.
     */
    public Map<String, Integer> firedMoreOftenThan(Evaluation other) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        firedRules().forEach(rule -> counts.merge(rule, 1, Integer::sum));
        other.firedRules().forEach(rule -> counts.computeIfPresent(rule, (name, count) -> count - 1));
        counts.values().removeIf(count -> count <= 0);
        return counts;
    }

    /** One field of a decision, before and after a change. */
    public record Change(JsonNode before, JsonNode after) {
    }
}
