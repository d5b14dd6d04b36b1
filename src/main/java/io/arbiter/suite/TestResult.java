package io.arbiter.suite;

import io.arbiter.runtime.Evaluation;

import java.util.List;

/** A test run: the decision it got and every way that decision differs from what was expected. */
public record TestResult(TestCase test, Evaluation evaluation, List<String> mismatches) {

    public TestResult {
        mismatches = List.copyOf(mismatches);
    }

    public boolean passed() {
        return mismatches.isEmpty();
    }
}
