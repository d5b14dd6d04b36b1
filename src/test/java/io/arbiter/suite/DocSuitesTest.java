package io.arbiter.suite;

import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the suites of docs/testing.md against the embedded default: a YAML block after {@code <!-- suite: passes -->}
 * must pass; one after {@code <!-- suite: fails -->} must fail with the difference lines of the {@code text} block
 * after the next {@code <!-- output -->}.
 */
class DocSuitesTest {

    private static final Path DOC = Path.of("docs/testing.md");
    private static final Pattern SUITE = Pattern.compile(
            "<!-- suite: (passes|fails) -->\\s*```yaml\\n(.*?)```(?:\\s*<!-- output -->\\s*```text\\n(.*?)```)?", Pattern.DOTALL);

    @TempDir
    Path temp;

    @Test
    void everySuiteOfTheDocDoesWhatTheDocSays() throws IOException {
        SuiteRunner runner = new SuiteRunner(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()));
        Matcher suites = SUITE.matcher(Files.readString(DOC));
        int count = 0;
        while (suites.find()) {
            Path file = Files.writeString(temp.resolve("suite.yaml"), suites.group(2));
            List<TestResult> results = runner.runAll(TestSuites.load(List.of(file)));
            assertFalse(results.isEmpty());
            if (suites.group(1).equals("passes")) {
                results.forEach(result -> assertTrue(result.passed(), result.test().name() + ": " + result.mismatches()));
            } else {
                List<String> shown = new ArrayList<>();
                suites.group(3).lines().filter(line -> line.startsWith("    ")).forEach(line -> shown.add(line.strip()));
                List<String> actual = results.stream().flatMap(result -> result.mismatches().stream()).toList();
                assertEquals(shown, actual, "the output shown in " + DOC);
            }
            count++;
        }
        assertEquals(2, count, "suites marked in " + DOC);
    }
}
