package io.arbiter.engine;

import java.util.List;
import java.util.Objects;

/**
 * One rule firing of one decision: {@code rule} is the qualified name ({@code package.rule name}), {@code order}
 * is 1-based firing order, {@code facts} the ids of the facts the rule matched. The rule's name, package and file
 * are resolvable from the rule base's revision ({@code GET /v1/rules/{revision}}), so a firing does not repeat them.
 */
public record FiredRule(String rule, int order, List<String> facts) {

    public FiredRule {
        Objects.requireNonNull(rule, "rule");
        facts = List.copyOf(facts);
    }

    /** The same firing at another place in a decision's order (firings of several sessions merged into one). */
    public FiredRule renumbered(int newOrder) {
        return new FiredRule(rule, newOrder, facts);
    }
}
