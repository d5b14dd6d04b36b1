package io.arbiter.bench;

import io.arbiter.decision.dependencies.DependenciesDecider;
import io.arbiter.decision.dependencies.DependenciesDecision;
import io.arbiter.document.Documents;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.engine.RuleBaseBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Compares edited dependency rules with the project's on the {@link DependenciesBenchmark} request, in one JVM:
 * decisions alternate between the rule sets in rotating order and each gets the median time over all rounds. On a
 * small shared machine two JVMs running the same code differ by up to 30%, more than most rule edits change; in one
 * JVM both rule sets share the compiled Java code and the neighbours. Each argument is a root holding
 * {@code rules/dependencies/} and {@code decision-tables/dependencies/} (the project root is {@code .}); a rule set
 * whose decision differs from the first one's is reported. Run from the project root after {@code bash bench/run.sh -l}:
 * {@code mkdir -p /tmp/variant && cp -r rules decision-tables /tmp/variant/} (edit the copy), then
 * {@code java -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.DependenciesRuleVariants . /tmp/variant [rounds]}.
 */
public final class DependenciesRuleVariants {

    private static final int WARMUP_ROUNDS = 15;

    public static void main(String[] args) throws Exception {
        List<Path> roots = new ArrayList<>();
        int rounds = 60;
        for (String arg : args) {
            if (arg.matches("\\d+")) {
                rounds = Integer.parseInt(arg);
            } else {
                roots.add(Path.of(arg));
            }
        }
        if (roots.isEmpty()) {
            System.err.println("usage: DependenciesRuleVariants ROOT... [rounds]  (ROOT holds rules/dependencies and decision-tables/dependencies)");
            System.exit(2);
        }
        var request = DependenciesBenchmark.request();
        List<CompiledRuleBase> ruleSets = new ArrayList<>();
        String firstDecision = null;
        for (Path root : roots) {
            Path rules = root.resolve("rules").resolve(DependenciesDecider.KIND);
            Path tables = root.resolve("decision-tables").resolve(DependenciesDecider.KIND);
            if (!Files.isDirectory(rules) || !Files.isDirectory(tables)) {
                System.err.println(root + ": needs " + rules + " and " + tables);
                System.exit(2);
            }
            CompiledRuleBase ruleSet = RuleBaseBuilder.build(DependenciesDecider.KIND, rules, tables, DependenciesDecider.PHASES);
            DependenciesDecision decision = DependenciesDecider.decide(request, ruleSet);
            String rendered = Documents.jsonMapper().writeValueAsString(List.of(decision.policies(), decision.policySets(),
                    decision.cycles()));
            if (firstDecision == null) {
                firstDecision = rendered;
            } else if (!firstDecision.equals(rendered)) {
                System.out.println(root + ": its decision differs from " + roots.get(0) + "'s");
            }
            System.out.printf("%s: %d rule firings%n", root, decision.firedRules().size());
            ruleSets.add(ruleSet);
        }
        long[][] nanos = new long[ruleSets.size()][rounds];
        for (int round = -WARMUP_ROUNDS; round < rounds; round++) {
            for (int k = 0; k < ruleSets.size(); k++) {
                int r = Math.floorMod(k + round, ruleSets.size());
                long started = System.nanoTime();
                DependenciesDecider.decide(request, ruleSets.get(r));
                if (round >= 0) {
                    nanos[r][round] = System.nanoTime() - started;
                }
            }
        }
        for (int r = 0; r < ruleSets.size(); r++) {
            long[] sorted = nanos[r].clone();
            Arrays.sort(sorted);
            System.out.printf("%-30s median %6.1f ms   p25 %6.1f ms%n", roots.get(r), sorted[rounds / 2] / 1e6,
                    sorted[rounds / 4] / 1e6);
        }
    }
}
