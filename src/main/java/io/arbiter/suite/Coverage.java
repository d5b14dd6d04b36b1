package io.arbiter.suite;

import io.arbiter.engine.RuleSources.RuleSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which rules and decision-table rows of the rule bases a suite's targets use fired in none of its tests. A rule
 * shared by several rule bases (the policy-merge rules) counts once.
 *
 * @param rules    every rule of those rule bases (a table row is a rule named by its row)
 * @param notFired the rules no test fired, in listing order
 */
public record Coverage(List<RuleSource> rules, List<RuleSource> notFired) {

    public Coverage {
        rules = List.copyOf(rules);
        notFired = List.copyOf(notFired);
    }

    /** The coverage of {@code results}, run by {@code runner}. */
    public static Coverage of(SuiteRunner runner, List<TestResult> results) {
        Set<String> fired = new HashSet<>();
        results.forEach(result -> fired.addAll(result.evaluation().firedRules()));
        List<RuleSource> rules = runner.rulesOf(results.stream().map(TestResult::test).toList());
        return new Coverage(rules, rules.stream().filter(rule -> !fired.contains(rule.rule())).toList());
    }

    public int covered() {
        return rules.size() - notFired.size();
    }

    /** The share of rules fired, 0 to 100 (100 when there are none). */
    public double percent() {
        return rules.isEmpty() ? 100.0 : 100.0 * covered() / rules.size();
    }

    /** Where a rule is written: {@code file:line} for DRL, {@code file row N} for a table row. */
    public static String location(RuleSource rule) {
        return rule.row() != null ? rule.file() + " row " + rule.row()
                : rule.line() != null ? rule.file() + ":" + rule.line() : rule.file();
    }
}
