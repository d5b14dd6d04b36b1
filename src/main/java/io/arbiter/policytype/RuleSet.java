package io.arbiter.policytype;

import java.util.List;

/**
 * Where a policy type's rules live and how a decision runs through them. {@code folder} names
 * {@code rules/<folder>/} (DRL) and {@code decision-tables/<folder>/} (tables): on the classpath, or under the
 * directories given to {@code serve --rules/--decision-tables}.
 *
 * @param phases the ruleflow groups a decision fires, in order
 */
public record RuleSet(String folder, List<String> phases) {

    public RuleSet {
        phases = List.copyOf(phases);
    }
}
