package io.arbiter.suite;

import io.arbiter.decision.Snapshot;
import io.arbiter.document.Documents;
import io.arbiter.engine.RuleSources;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.Evaluation;
import io.arbiter.runtime.SnapshotLoader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs tests against one snapshot. A test with its own {@code policy} runs against the same snapshot with that
 * global policy, derived once per policy file for the life of the runner. Thread-safe.
 */
public final class SuiteRunner {

    private final PolicyTypeRegistry registry;
    private final Snapshot snapshot;
    private final Decisions decisions;
    private final Map<Path, Decisions> byPolicy = new ConcurrentHashMap<>();
    private volatile RuleNames ruleNames;

    public SuiteRunner(PolicyTypeRegistry registry, Snapshot snapshot) {
        this.registry = registry;
        this.snapshot = snapshot;
        this.decisions = new Decisions(registry, snapshot);
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    public PolicyTypeRegistry registry() {
        return registry;
    }

    /**
     * Decides the test's request and matches the decision. A policy file that cannot be read or parsed is not a
     * failed test but an unusable suite: it throws a {@link SuiteException} naming the file, without the policy's
     * problems (they quote the file; {@link TestSuites} says the same when it loads the suite).
     */
    public TestResult run(TestCase test) {
        byte[] body;
        try {
            body = Documents.jsonMapper().writeValueAsBytes(test.request());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Evaluation evaluation = Evaluation.of(decisionsFor(test), test.target(), body);
        return new TestResult(test, evaluation, Expectations.mismatches(test.expect(), evaluation, ruleNames(), false));
    }

    public List<TestResult> runAll(List<TestCase> tests) {
        return tests.stream().map(this::run).toList();
    }

    private Decisions decisionsFor(TestCase test) {
        if (test.policy() == null) {
            return decisions;
        }
        return byPolicy.computeIfAbsent(test.policy().toAbsolutePath().normalize(), file -> new Decisions(registry,
                snapshot.withPolicy(policy(test, file))));
    }

    private static io.arbiter.policy.PolicyDocument policy(TestCase test, Path file) {
        try {
            return SnapshotLoader.loadPolicy(file);
        } catch (io.arbiter.document.DocumentException | UncheckedIOException e) {
            throw new SuiteException(test.file(), List.of(io.arbiter.document.Problem.at("$",
                    "test '" + test.name() + "': " + TestSuites.unreadablePolicy(file))));
        }
    }

    /** The names of every rule of the snapshot, listed on first use (the listing parses the rule files again). */
    RuleNames ruleNames() {
        RuleNames names = ruleNames;
        if (names == null) {
            ruleNames = names = RuleNames.of(snapshot.ruleBases().values());
        }
        return names;
    }

    /** The rules of the rule bases that decide {@code tests}' targets, each once, in listing order. */
    List<RuleSources.RuleSource> rulesOf(List<TestCase> tests) {
        Map<String, RuleSources.RuleSource> rules = new java.util.LinkedHashMap<>();
        tests.stream().map(TestCase::target).distinct()
                .flatMap(target -> registry.typeOfTarget(target).stream())
                .distinct()
                .forEach(type -> snapshot.ruleBase(type.name()).listing().forEach(rule -> rules.putIfAbsent(rule.rule(), rule)));
        return List.copyOf(rules.values());
    }
}
