package io.arbiter.bench;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The three {@link AuditCostBenchmark} cases in one JVM, interleaved: rounds of 200 decisions per case, the cases'
 * order rotating every round, and the median time per decision of each case over all rounds. On a small shared machine
 * JMH's forks differ more from one another (JIT outcome, neighbours) than auditing costs; interleaving gives each case
 * the same compiled code and the same neighbours. Besides each case's median it reports the median of its per-round
 * ratio to the baseline: a round's cases run back to back, so the ratio cancels the host's speed drifting over a run. Run from the project root after {@code bash bench/run.sh -l}:
 * {@code java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.AuditCostInterleaved [rounds]}.
 */
public final class AuditCostInterleaved {

    private static final int DECISIONS_PER_ROUND = 200;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        AuditCostBenchmark benchmark = new AuditCostBenchmark();
        benchmark.setUp();
        List<String> names = List.of("withoutRecordingOrLog", "withRecordingOnly", "withRecordingAndLog");
        List<Callable<?>> cases = List.of(benchmark::withoutRecordingOrLog, benchmark::withRecordingOnly,
                benchmark::withRecordingAndLog);
        for (int warmup = 0; warmup < 30; warmup++) {
            for (Callable<?> decision : cases) {
                runRound(decision);
            }
        }
        long[][] nanosPerDecision = new long[cases.size()][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < cases.size(); k++) {
                int c = (k + round) % cases.size();
                nanosPerDecision[c][round] = runRound(cases.get(c));
            }
        }
        double baseline = median(nanosPerDecision[0]);
        for (int c = 0; c < cases.size(); c++) {
            double median = median(nanosPerDecision[c]);
            double[] ratios = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                ratios[round] = (double) nanosPerDecision[c][round] / nanosPerDecision[0][round];
            }
            System.out.printf("%-22s %7.1f us/decision  %+6.1f%%  (paired by round: %+6.1f%%)%n", names.get(c), median / 1e3,
                    100 * (median / baseline - 1), 100 * (median(ratios) - 1));
        }
        benchmark.tearDown();
    }

    private static long runRound(Callable<?> decision) throws Exception {
        long started = System.nanoTime();
        for (int i = 0; i < DECISIONS_PER_ROUND; i++) {
            decision.call();
        }
        return (System.nanoTime() - started) / DECISIONS_PER_ROUND;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
