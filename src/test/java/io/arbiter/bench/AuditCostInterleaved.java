package io.arbiter.bench;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The three {@link AuditCostBenchmark} cases in one JVM, interleaved: rounds of 200 decisions per case, the cases'
 * order rotating every round, and the median time per decision of each case over all rounds. On a small shared machine
 * JMH's forks differ more from one another (JIT outcome, neighbours) than auditing costs; interleaving gives each case
 * the same compiled code and the same neighbours. Besides each case's median it reports the median of its per-round
 * ratio to the baseline: a round's cases run back to back, so the ratio cancels the host's speed drifting over a run.
 * The log case's turn lasts until the log has written its records, so the log's own thread is charged to it alone. Run from the project root after {@code bash bench/run.sh -l}:
 * {@code java -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" io.arbiter.bench.AuditCostInterleaved [rounds]}.
 */
public final class AuditCostInterleaved {

    private static final int DECISIONS_PER_ROUND = 200;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        AuditCostBenchmark benchmark = new AuditCostBenchmark();
        benchmark.setUp();
        // "without-log": the log's file writes (and the OS writing them back) slow the other cases' turns down too
        boolean withLog = !(args.length > 1 && args[1].equals("without-log"));
        List<String> names = List.of("withoutRecordingOrLog", "withRecordingOnly", "withRecordingAndLog")
                .subList(0, withLog ? 3 : 2);
        List<Callable<?>> cases = List.<Callable<?>>of(benchmark::withoutRecordingOrLog, benchmark::withRecordingOnly,
                benchmark::withRecordingAndLog).subList(0, withLog ? 3 : 2);
        Callable<?> logged = withLog ? cases.get(2) : null;
        long[] records = {1}; // setUp decided once with the log
        for (int warmup = 0; warmup < 30; warmup++) {
            for (Callable<?> decision : cases) {
                runRound(benchmark, decision, decision == logged, records);
            }
        }
        long[][] nanosPerDecision = new long[cases.size()][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < cases.size(); k++) {
                int c = (k + round) % cases.size();
                nanosPerDecision[c][round] = runRound(benchmark, cases.get(c), c == 2, records);
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

    /**
     * One turn of a case; the log case's turn ends when its records are written (the log's thread would otherwise
     * go on writing them during the next case's turn, and that case would pay for it).
     */
    private static long runRound(AuditCostBenchmark benchmark, Callable<?> decision, boolean logs, long[] records)
            throws Exception {
        long started = System.nanoTime();
        for (int i = 0; i < DECISIONS_PER_ROUND; i++) {
            decision.call();
        }
        if (logs) {
            records[0] += DECISIONS_PER_ROUND;
            benchmark.awaitLogged(records[0]);
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
