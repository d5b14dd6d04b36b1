package io.arbiter.suite;

import io.arbiter.decision.Snapshot;
import io.arbiter.document.DocumentException;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Running suites against the embedded default: pass, fail with a diff, refusals, per-test policies, rules, coverage. */
class SuiteRunnerTest {

    static final Path EXAMPLES = Path.of("docs/examples/tests");
    private static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();
    private static SuiteRunner runner;

    @TempDir
    Path temp;

    @BeforeAll
    static void embeddedDefault() {
        Snapshot snapshot = Fixtures.snapshot(Fixtures.embeddedPolicy());
        runner = new SuiteRunner(REGISTRY, snapshot);
    }

    private List<TestResult> run(String suite) throws IOException {
        Path file = Files.writeString(temp.resolve("suite.yaml"), suite);
        return runner.runAll(TestSuites.load(List.of(file), REGISTRY));
    }

    @Test
    void theExampleSuitesPassOnTheEmbeddedDefault() {
        List<TestResult> results = runner.runAll(TestSuites.load(List.of(EXAMPLES), REGISTRY));

        assertTrue(results.size() >= 5, "examples: " + results.size());
        results.forEach(result -> assertTrue(result.passed(), result.test().title() + ": " + result.mismatches()));
        assertEquals(List.of("backend", "dependencies", "implementation", "rollout"),
                results.stream().map(result -> result.test().target()).distinct().sorted().toList());
    }

    @Test
    void aTestPassesWhenTheDecisionHoldsWhatItExpects() throws IOException {
        TestResult result = run("""
                tests:
                  - name: bitnami
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect:
                      outcome: SELECTED
                      selected: {path: cap.implementation.bitnami.postgresql.install}
                """).get(0);

        assertTrue(result.passed(), result.mismatches().toString());
        assertEquals("SELECTED", result.evaluation().outcome());
    }

    @Test
    void aFailedTestSaysWhereTheDecisionDiffersWithExpectedAndActual() throws IOException {
        TestResult result = run("""
                tests:
                  - name: wrong guess
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect:
                      outcome: SELECTED
                      selected: {path: cap.implementation.aws.rds.postgresql.install, revision: 0.1.0}
                """).get(0);

        assertFalse(result.passed());
        assertEquals(List.of("$.selected.path: expected \"cap.implementation.aws.rds.postgresql.install\", actual"
                + " \"cap.implementation.bitnami.postgresql.install\""), result.mismatches());
    }

    @Test
    void anExpectedRefusalIsTheErrorBody() throws IOException {
        List<TestResult> results = run("""
                tests:
                  - name: refused as expected
                    request: {interface: {path: interface.database.postgresql.install}}
                    expect: {error: {code: INVALID_REQUEST}}
                  - name: refused with another code
                    request: {interface: {path: interface.database.postgresql.install}}
                    expect: {error: {code: INVALID_POLICY}}
                  - name: expected a refusal but decided
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect: {error: {code: INVALID_POLICY}}
                """);

        assertTrue(results.get(0).passed(), results.get(0).mismatches().toString());
        assertEquals(List.of("$.error.code: expected \"INVALID_POLICY\", actual \"INVALID_REQUEST\""), results.get(1).mismatches());
        assertEquals(List.of("$.error: expected {\"code\":\"INVALID_POLICY\"}, actual absent"), results.get(2).mismatches());
    }

    @Test
    void aHostileRequestFailsItsTestWithTheRefusalNeverThrows() throws IOException {
        List<TestResult> results = run("""
                tests:
                  - name: wrong shape
                    request: {interface: [1, 2]}
                    expect: {outcome: SELECTED}
                  - name: wrong shape for rollout
                    target: rollout
                    request: {strategy: {type: Progressive, progressive: {maxConcurrency: 99999999999999999999999}}}
                    expect: {aggregatedStatus: Progressing}
                  - name: a string for a list
                    target: backend
                    request: {typeRefs: "cap.type.aws.auth.credentials"}
                    expect: {backends: []}
                """);

        for (TestResult result : results) {
            assertFalse(result.passed(), result.test().name());
            assertTrue(result.evaluation().refused(), result.test().name() + ": " + result.evaluation().result());
            assertTrue(result.mismatches().get(0).endsWith("actual absent"), result.mismatches().toString());
        }
    }

    @Test
    void aTestsPolicyReplacesTheGlobalPolicyForThatTestOnly() throws IOException {
        Files.writeString(temp.resolve("vault.yaml"), """
                typeInstance:
                  rules:
                    - typeRef: {path: cap.type.aws.auth.credentials}
                      backend: {id: 00fd161c-01bd-47a6-9872-47490e11f996, description: Vault}
                """);
        List<TestResult> results = run("""
                tests:
                  - name: with the test's policy
                    target: backend
                    policy: vault.yaml
                    request: {typeRefs: [{path: cap.type.aws.auth.credentials, revision: 0.1.0}]}
                    expect:
                      backends: [{backend: {id: 00fd161c-01bd-47a6-9872-47490e11f996}}]
                      firedRules: [Exact path without revision]
                  - name: with the global policy
                    target: backend
                    request: {typeRefs: [{path: cap.type.aws.auth.credentials, revision: 0.1.0}]}
                    expect:
                      backends: [{backend: {id: 00fd161c-01bd-47a6-9872-47490e11f996}}]
                """);

        assertTrue(results.get(0).passed(), results.get(0).mismatches().toString());
        assertFalse(results.get(1).passed(), "the embedded default has no backend rule");
    }

    @Test
    void aPolicyFileThatDoesNotParseIsAnUnusableSuiteNotAFailedTest() throws IOException {
        Files.writeString(temp.resolve("broken.yaml"), "interface: {rules: [{interface: {path: nope}, oneOf: []}]}\n");

        SuiteException e = assertThrows(SuiteException.class, () -> run("""
                tests:
                  - name: t
                    policy: broken.yaml
                    request: {interface: {path: cap.interface.database.postgresql.install}}
                    expect: {outcome: SELECTED}
                """));

        String lines = String.join("\n", e.lines());
        assertTrue(lines.contains("suite.yaml:3:5: $.tests[0].policy: the file " + temp.resolve("broken.yaml").toAbsolutePath()
                + " could not be read as a policy: arbiter lint"), lines);
        assertFalse(lines.contains("nope"), "the policy's content is not quoted: " + lines);
    }

    @Test
    void firedRulesAndNotFiredRulesAreCheckedByShortOrQualifiedName() throws IOException {
        List<TestResult> results = run("""
                tests:
                  - name: right
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect:
                      firedRules: ["Outcome SELECTED when a oneOf item won", "io.arbiter.rules.implementation.Rule key cap.* names every Interface"]
                      notFiredRules: ["Outcome NO_RULE when no rule key names the Interface"]
                  - name: wrong
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect:
                      firedRules: ["Outcome NO_RULE when no rule key names the Interface"]
                      notFiredRules: ["io.arbiter.rules.implementation.Outcome SELECTED when a oneOf item won"]
                """);

        assertTrue(results.get(0).passed(), results.get(0).mismatches().toString());
        List<String> wrong = results.get(1).mismatches();
        assertEquals(2, wrong.size(), wrong.toString());
        assertTrue(wrong.get(0).startsWith("firedRules: expected 'Outcome NO_RULE when no rule key names the Interface' to fire; fired ["), wrong.get(0));
        assertEquals("notFiredRules: expected 'io.arbiter.rules.implementation.Outcome SELECTED when a oneOf item won' not to fire,"
                + " but it fired", wrong.get(1));
    }

    @Test
    void coverageListsTheRulesNoTestFiredAndOmitsThoseThatFired() throws IOException {
        List<TestResult> results = run("""
                tests:
                  - name: selected
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect: {outcome: SELECTED}
                """);

        Coverage coverage = Coverage.of(runner, results);

        List<String> notFired = coverage.notFired().stream().map(rule -> rule.name()).toList();
        assertTrue(notFired.contains("Outcome NO_RULE when no rule key names the Interface"), notFired.toString());
        assertFalse(notFired.contains("Outcome SELECTED when a oneOf item won"), notFired.toString());
        assertTrue(coverage.rules().stream().anyMatch(rule -> rule.name().equals("Outcome SELECTED when a oneOf item won")));
        assertTrue(coverage.rules().stream().noneMatch(rule -> rule.file().contains("/backend/")),
                "only the rule bases of the suite's targets");
        assertTrue(coverage.notFired().stream().anyMatch(rule -> rule.row() != null && rule.file().startsWith("decision-tables/")),
                "table rows are listed by table and row: " + coverage.notFired());
        assertTrue(coverage.percent() > 0 && coverage.percent() < 100, String.valueOf(coverage.percent()));
        assertEquals(coverage.rules().size(), coverage.rules().stream().map(rule -> rule.rule()).distinct().count(),
                "a rule shared by rule bases counts once");
    }
}
