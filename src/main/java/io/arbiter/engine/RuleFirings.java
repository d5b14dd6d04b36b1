package io.arbiter.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;

import java.util.List;

/**
 * A decision that carries the rule firings that produced it. Such a decision leaves {@code firedRules} out of its
 * own serialisation ({@code @JsonIgnore}) and the service adds {@link #toJson(List)} to the response: the firings
 * are most of a response (52 firings, 16 of 17 KB for a typical implementation decision), so they are a
 * {@link FiredRulesNode}: written straight from the firings, never serialised and re-read (AuditCostBenchmark).
 */
public interface RuleFirings {

    List<FiredRule> firedRules();

    /** The firings as the response's {@code firedRules}: rule, name, package, order and fact ids, in firing order. */
    static ArrayNode toJson(List<FiredRule> fired) {
        return FiredRulesNode.of(fired);
    }
}
