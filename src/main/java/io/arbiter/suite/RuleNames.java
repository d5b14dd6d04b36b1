package io.arbiter.suite;

import io.arbiter.engine.CompiledRuleBase;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The names of the rules of some rule bases: a test names a rule {@code package.name} or by its short name, and a
 * name no rule has is a mistake in the test (it would make {@code notFiredRules} pass whatever the rules do).
 */
public final class RuleNames {

    private final Map<String, String> shortByQualified = new HashMap<>();
    private final Set<String> shortNames = new HashSet<>();

    /** @param shortByQualified every rule's short name by its qualified name */
    public RuleNames(Map<String, String> shortByQualified) {
        this.shortByQualified.putAll(shortByQualified);
        this.shortNames.addAll(shortByQualified.values());
    }

    /** The rules of {@code ruleBases}, as their listings give them (the listing parses the rule files again). */
    public static RuleNames of(Collection<CompiledRuleBase> ruleBases) {
        Map<String, String> names = new HashMap<>();
        ruleBases.forEach(ruleBase -> ruleBase.listing().forEach(rule -> names.putIfAbsent(rule.rule(), rule.name())));
        return new RuleNames(names);
    }

    /** The rule's name without its package; a name not listed is returned as it is. */
    public String shortName(String qualified) {
        return shortByQualified.getOrDefault(qualified, qualified);
    }

    /** True when some rule is named {@code name}, qualified or short. */
    public boolean exists(String name) {
        return shortByQualified.containsKey(name) || shortNames.contains(name);
    }
}
