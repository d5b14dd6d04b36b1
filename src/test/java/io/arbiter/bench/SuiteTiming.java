package io.arbiter.bench;

import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.suite.Coverage;
import io.arbiter.suite.SuiteRunner;
import io.arbiter.suite.TestCase;
import io.arbiter.suite.TestResult;
import io.arbiter.suite.TestSuites;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Times what {@code arbiter test} does after the snapshot is loaded, for each suite path given, in turns within one
 * JVM (so the cases share the machine's load): load the suites, a new runner (per-test policies derived again, as
 * each CLI run does), run every test, and the coverage. Prints the median and quartiles per case.
 *
 * <pre>java -cp ... io.arbiter.bench.SuiteTiming ROUNDS PATH...</pre>
 */
public final class SuiteTiming {

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        List<Path> cases = Arrays.stream(args).skip(1).map(Path::of).toList();
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        long loadStart = System.nanoTime();
        Snapshot snapshot = SnapshotLoader.load(Settings.embedded(), registry);
        System.out.printf("snapshot load (embedded default, rule bases compiled): %.0f ms%n", (System.nanoTime() - loadStart) / 1e6);
        List<List<Double>> run = new ArrayList<>();
        List<List<Double>> coverage = new ArrayList<>();
        cases.forEach(c -> { run.add(new ArrayList<>()); coverage.add(new ArrayList<>()); });
        int[] tests = new int[cases.size()];
        int[] failed = new int[cases.size()];
        for (int round = 0; round < rounds + 2; round++) {
            for (int i = 0; i < cases.size(); i++) {
                long start = System.nanoTime();
                List<TestCase> loaded = TestSuites.load(List.of(cases.get(i)), registry);
                SuiteRunner runner = new SuiteRunner(registry, snapshot);
                List<TestResult> results = runner.runAll(loaded);
                long ran = System.nanoTime();
                Coverage.of(runner, results);
                long covered = System.nanoTime();
                tests[i] = results.size();
                failed[i] = (int) results.stream().filter(r -> !r.passed()).count();
                if (round == 0) {
                    results.stream().filter(r -> !r.passed()).limit(5)
                            .forEach(r -> System.out.println("  FAIL " + r.test().title() + " " + r.mismatches()));
                }
                if (round >= 2) { // two warm-up rounds
                    run.get(i).add((ran - start) / 1e6);
                    coverage.get(i).add((covered - ran) / 1e6);
                }
            }
        }
        for (int i = 0; i < cases.size(); i++) {
            System.out.printf("%s: %d tests, %d failed; load+run median %.0f ms (q1 %.0f, q3 %.0f), %.2f ms/test; coverage +%.0f ms%n",
                    cases.get(i), tests[i], failed[i], quantile(run.get(i), 0.5), quantile(run.get(i), 0.25),
                    quantile(run.get(i), 0.75), quantile(run.get(i), 0.5) / tests[i], quantile(coverage.get(i), 0.5));
        }
    }

    private static double quantile(List<Double> values, double q) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get((int) Math.min(sorted.size() - 1, Math.round(q * (sorted.size() - 1))));
    }
}
