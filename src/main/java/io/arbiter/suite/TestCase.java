package io.arbiter.suite;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;

/**
 * One test of a suite file: decide {@code request} for {@code target} and match the decision against {@code expect}
 * ({@link Expectations}). {@code policy} is the global policy file the test runs under (null: the runner's snapshot's).
 */
public record TestCase(Path file, String name, String target, JsonNode request, JsonNode expect, Path policy) {

    /** {@code name (file)}, as reports name a test. */
    public String title() {
        return name + " (" + file + ")";
    }
}
