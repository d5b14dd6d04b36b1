package io.arbiter.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.engine.RuleSources.RuleSource;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.suite.Coverage;
import io.arbiter.suite.JUnitReport;
import io.arbiter.suite.SuiteException;
import io.arbiter.suite.SuiteRunner;
import io.arbiter.suite.TestCase;
import io.arbiter.suite.TestResult;
import io.arbiter.suite.TestSuites;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code arbiter test PATH...}: runs policy test suites against a snapshot, as CI gates a policy change. */
@Command(name = "test", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run policy test suites: decide each test's request with the policy, rules, decision tables and"
                + " catalog given (the embedded default when none are) and compare the decision with what the test"
                + " expects. PATH is a suite file (YAML or JSON) or a folder searched recursively for *.yaml, *.yml"
                + " and *.json. The format is described in docs/testing.md.",
                "",
                "A suite has a top-level 'tests' list; each test has a name, a target (implementation by default,"
                        + " backend, dependencies or rollout), a request (the body of POST /v1/decisions/<target>),"
                        + " expect (a part of the response, matched recursively; an expected refusal is the error body,"
                        + " e.g. {error: {code: INVALID_POLICY}}; firedRules and notFiredRules list rule names) and"
                        + " optionally a policy file, relative to the suite, to decide under instead of --policy.",
                "",
                "Exit status: 0 every test passed, 1 a test failed, 2 usage error (no PATH, a file that cannot be"
                        + " read, a malformed suite or policy, bad snapshot options): nothing was decided.",
                ""},
        footer = {"", "Example:",
                "  arbiter test docs/examples/tests",
                "  arbiter test --policy policy.yaml --junit target/tests.xml --coverage tests/",
                "",
                "  # tests/selection.yaml",
                "  tests:",
                "    - name: postgres is installed with Bitnami's chart",
                "      request:",
                "        interface: {path: cap.interface.database.postgresql.install}",
                "      expect:",
                "        outcome: SELECTED",
                "        selected: {path: cap.implementation.bitnami.postgresql.install}"})
final class TestCommand extends ArbiterCommand {

    enum Format { TEXT, JSON }

    @Parameters(paramLabel = "PATH", arity = "0..*", description = "Suite files and folders of them.")
    List<Path> paths;

    @Mixin
    SnapshotOptions snapshot;

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write the results as JUnit XML to FILE, for CI.")
    Path junit;

    @Option(names = "--coverage", description = "Also list the rules and decision-table rows of the rule bases the"
            + " suites' targets use that no test fired, and the share that fired.")
    boolean coverage;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default: PASS/FAIL per test, a diff per failure) or json"
                    + " ({\"tests\", \"passed\", \"failed\", \"results\": [...], \"coverage\"}).")
    Format format;

    @Override
    io.arbiter.decision.Settings loadedSettings() {
        return snapshot.settings();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = console.out();
        PrintWriter err = console.err();
        if (paths == null || paths.isEmpty()) {
            console.error("give at least one suite file or folder (see --help)");
            return 2;
        }
        List<TestCase> tests;
        List<TestResult> results;
        SuiteRunner runner;
        try {
            tests = TestSuites.load(paths, registry());
            Snapshot loaded = SnapshotLoader.load(snapshot.settings(), registry());
            runner = new SuiteRunner(registry(), loaded);
            results = runner.runAll(tests);
        } catch (SuiteException e) {
            console.error("the suite " + e.file() + " cannot be run:");
            e.lines().forEach(line -> err.println("  " + line));
            return 2;
        } catch (DocumentException e) {
            console.error(e.getMessage(), e.problems());
            return 2;
        } catch (UncheckedIOException e) {
            console.error(e.getMessage());
            return 2;
        }
        Coverage covered = coverage ? Coverage.of(runner, results) : null;
        if (junit != null) {
            try {
                JUnitReport.write(results, junit);
            } catch (java.io.IOException e) {
                console.error("cannot write the JUnit report " + junit + " (" + e.getClass().getSimpleName() + ")");
                return 2;
            }
        }
        if (format == Format.JSON) {
            console.printJson(json(results, covered));
        } else {
            text(results, covered, out);
        }
        out.flush();
        return results.stream().allMatch(TestResult::passed) ? 0 : 1;
    }

    private static void text(List<TestResult> results, Coverage coverage, PrintWriter out) {
        for (TestResult result : results) {
            out.println((result.passed() ? "PASS " : "FAIL ") + result.test().title());
            result.mismatches().forEach(mismatch -> out.println("    " + mismatch));
        }
        long failed = results.stream().filter(result -> !result.passed()).count();
        out.println();
        out.println(results.size() + (results.size() == 1 ? " test: " : " tests: ") + (results.size() - failed) + " passed, " + failed + " failed");
        if (coverage != null) {
            out.println(String.format(Locale.ROOT, "coverage: %d of %d rules and table rows fired (%.1f%%)",
                    coverage.covered(), coverage.rules().size(), coverage.percent()));
            if (!coverage.notFired().isEmpty()) {
                out.println("never fired:");
                coverage.notFired().forEach(rule -> out.println("  " + Coverage.location(rule) + "  " + rule.name()));
            }
        }
    }

    /** What {@code --format json} prints; {@code coverage} only with {@code --coverage}. */
    record Report(int tests, long passed, long failed, List<Result> results,
                  @JsonInclude(JsonInclude.Include.NON_NULL) CoverageView coverage) {
    }

    record Result(String file, String name, String target, boolean passed, List<String> mismatches) {
    }

    record CoverageView(int rules, int fired, double percent, List<RuleSource> notFired) {
    }

    private static Report json(List<TestResult> results, Coverage coverage) {
        long failed = results.stream().filter(result -> !result.passed()).count();
        return new Report(results.size(), results.size() - failed, failed, results.stream().map(result -> new Result(
                result.test().file().toString(), result.test().name(), result.test().target(), result.passed(),
                result.mismatches())).toList(), coverage == null ? null : new CoverageView(coverage.rules().size(),
                coverage.covered(), Math.round(coverage.percent() * 10) / 10.0, coverage.notFired()));
    }
}
