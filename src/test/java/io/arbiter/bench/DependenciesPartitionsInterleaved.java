package io.arbiter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.decision.dependencies.DependenciesDecider;
import io.arbiter.engine.CompiledRuleBase;
import io.arbiter.testing.RuleTestSupport;

import java.util.Arrays;

/**
 * The DependenciesBenchmark request gated in one session and in two partitions, alternately, in one JVM: each round
 * decides it once each way (in alternating order), so both see the same moments of a noisy host. Prints each way's
 * median and the median of the per-round ratios. After {@code bash bench/run.sh -l}:
 * {@code java -XX:+UseParallelGC -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
 * io.arbiter.bench.DependenciesPartitionsInterleaved [rounds]}.
 */
public final class DependenciesPartitionsInterleaved {

    private DependenciesPartitionsInterleaved() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 150;
        CompiledRuleBase ruleBase = RuleTestSupport.ruleBase(DependenciesDecider.KIND, DependenciesDecider.PHASES);
        JsonNode request = DependenciesBenchmark.request();
        for (int i = 0; i < 40; i++) {
            DependenciesDecider.decide(request, ruleBase, 1);
            DependenciesDecider.decide(request, ruleBase, 2);
        }
        long[] one = new long[rounds];
        long[] two = new long[rounds];
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            if (r % 2 == 0) {
                one[r] = timed(request, ruleBase, 1);
                two[r] = timed(request, ruleBase, 2);
            } else {
                two[r] = timed(request, ruleBase, 2);
                one[r] = timed(request, ruleBase, 1);
            }
            ratios[r] = (double) two[r] / one[r];
        }
        Arrays.sort(one);
        Arrays.sort(two);
        Arrays.sort(ratios);
        System.out.printf("one session: median %.1f ms; two partitions: median %.1f ms; median ratio %.3f (%d rounds)%n",
                one[rounds / 2] / 1e6, two[rounds / 2] / 1e6, ratios[rounds / 2], rounds);
    }

    private static long timed(JsonNode request, CompiledRuleBase ruleBase, int partitions) {
        long start = System.nanoTime();
        DependenciesDecider.decide(request, ruleBase, partitions);
        return System.nanoTime() - start;
    }
}
