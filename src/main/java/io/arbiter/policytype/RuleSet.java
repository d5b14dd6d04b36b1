package io.arbiter.policytype;

import java.util.List;

/**
 * Where a policy type's rules live and how a decision runs through them. Each folder names
 * {@code rules/<folder>/} (DRL) and {@code decision-tables/<folder>/} (tables): on the classpath, or under the
 * directories given to {@code serve --rules/--decision-tables}. Folders may be shared between types
 * ({@code policy-merge}).
 *
 * @param phases the ruleflow groups a decision fires, in order
 */
public record RuleSet(List<String> folders, List<String> phases) {

    public RuleSet {
        folders = List.copyOf(folders);
        phases = List.copyOf(phases);
        if (folders.isEmpty()) {
            throw new IllegalArgumentException("a rule set needs at least one folder");
        }
    }

    public RuleSet(String folder, List<String> phases) {
        this(List.of(folder), phases);
    }
}
