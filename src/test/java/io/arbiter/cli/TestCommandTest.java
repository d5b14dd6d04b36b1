package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code arbiter test}: exit 0 all pass, 1 a failure, 2 a usage error; text, JSON, JUnit XML and coverage. */
class TestCommandTest {

    private static final String EXAMPLES = "docs/examples/tests";

    @TempDir
    Path temp;

    private static CliRun run(String... args) {
        return CliRun.run(args);
    }

    private Path failingSuite() throws Exception {
        return Files.writeString(temp.resolve("failing.yaml"), """
                tests:
                  - name: passes
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect: {outcome: SELECTED}
                  - name: fails
                    request: {interface: {path: cap.interface.database.postgresql.install, revision: 0.1.0}}
                    expect: {outcome: NO_MATCH}
                """);
    }

    @Test
    void theExampleSuitesPassWithExitZero() {
        CliRun run = run("test", EXAMPLES);

        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("PASS Bitnami installs PostgreSQL on Kubernetes (" + Path.of(EXAMPLES, "implementation.yaml") + ")"), run.out());
        assertFalse(run.out().contains("FAIL "), run.out());
        assertTrue(run.out().matches("(?s).*\\n\\d+ tests: \\d+ passed, 0 failed\\n.*"), run.out());
    }

    @Test
    void aFailingTestExitsOneWithItsDiff() throws Exception {
        CliRun run = run("test", failingSuite().toString());

        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("PASS passes (" + temp.resolve("failing.yaml") + ")"), run.out());
        assertTrue(run.out().contains("FAIL fails (" + temp.resolve("failing.yaml") + ")\n"
                + "    $.outcome: expected \"NO_MATCH\", actual \"SELECTED\"\n"), run.out());
        assertTrue(run.out().contains("2 tests: 1 passed, 1 failed"), run.out());
    }

    @Test
    void usageErrorsExitTwoWithoutAStackTrace() throws Exception {
        CliRun none = run("test");
        assertEquals(2, none.exit());
        assertTrue(none.err().contains("give at least one suite file or folder"), none.err());

        CliRun missing = run("test", temp.resolve("nowhere.yaml").toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("nowhere.yaml: $: no such file or folder"), missing.err());

        Path malformed = Files.writeString(temp.resolve("malformed.yaml"), "tests:\n  - request: {}\n    expect: {}\n");
        CliRun bad = run("test", malformed.toString());
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains(malformed + ":2:5: $.tests[0].name: required field 'name' is missing"), bad.err());

        Path policy = Files.writeString(temp.resolve("policy.yaml"), "interface: {rules: 3}\n");
        CliRun badPolicy = run("test", "--policy", policy.toString(), failingSuite().toString());
        assertEquals(2, badPolicy.exit(), badPolicy.out() + badPolicy.err());
        assertTrue(badPolicy.err().contains("$.interface.rules"), badPolicy.err());

        CliRun badHub = run("test", "--hub", temp.resolve("no-hub").toString(), failingSuite().toString());
        assertEquals(2, badHub.exit(), badHub.out() + badHub.err());
        assertTrue(badHub.err().contains("no-hub does not exist"), badHub.err());

        Path notAFolder = Files.writeString(temp.resolve("file"), "");
        CliRun badJunit = run("test", "--junit", notAFolder.resolve("junit.xml").toString(), failingSuite().toString());
        assertEquals(2, badJunit.exit(), badJunit.out() + badJunit.err());
        assertTrue(badJunit.err().contains("cannot write the JUnit report"), badJunit.err());

        for (CliRun run : new CliRun[]{none, missing, bad, badPolicy, badHub}) {
            assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
            assertEquals("", run.out());
        }
    }

    @Test
    void aSuiteCannotGetAnotherFilesContentPrinted() throws Exception {
        Files.createDirectories(temp.resolve("elsewhere"));
        Files.createDirectories(temp.resolve("suites"));
        Path secret = Files.writeString(temp.resolve("elsewhere/shadow"), "root:$6$not-for-your-eyes:19000:0:99999:7:::\n");
        Path inTree = Files.writeString(temp.resolve("suites/shadow.yaml"), "root:$6$not-for-your-eyes:19000:0:99999:7:::\n");
        Path suite = Files.writeString(temp.resolve("suites/suite.yaml"), """
                tests:
                  - name: absolute
                    policy: %s
                    request: {}
                    expect: {}
                  - name: not a policy
                    policy: shadow.yaml
                    request: {}
                    expect: {}
                """.formatted(secret));

        CliRun run = run("test", suite.toString());

        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("$.tests[0].policy: an absolute path"), run.err());
        assertTrue(run.err().contains("$.tests[1].policy: the file " + inTree.toAbsolutePath() + " could not be read as a policy"), run.err());
        assertFalse(run.err().contains("not-for-your-eyes"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void junitXmlIsWrittenForCi() throws Exception {
        Path report = temp.resolve("out/junit.xml");

        CliRun run = run("test", "--junit", report.toString(), failingSuite().toString(), EXAMPLES);

        assertEquals(1, run.exit(), run.err());
        var xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile()).getDocumentElement();
        assertTrue(xml.getElementsByTagName("testsuite").getLength() >= 5, "one per file");
        assertEquals("1", xml.getAttribute("failures"));
        assertTrue(xml.getElementsByTagName("failure").item(0).getTextContent().contains("$.outcome: expected \"NO_MATCH\""));
    }

    @Test
    void coverageNamesTheRulesAndRowsNoTestFired() throws Exception {
        CliRun run = run("test", "--coverage", failingSuite().toString());

        assertTrue(run.out().matches("(?s).*coverage: \\d+ of \\d+ rules and table rows fired \\(\\d+\\.\\d%\\)\\nnever fired:\\n.*"), run.out());
        assertTrue(run.out().contains("Outcome NO_RULE when no rule key names the Interface"), run.out());
        assertFalse(run.out().contains("  Outcome SELECTED when a oneOf item won\n"), run.out());
        assertTrue(run.out().matches("(?s).*\\n  decision-tables/\\S+ row \\d+  .*"), "table rows by table and row: " + run.out());
    }

    @Test
    void jsonOutputHasCountsResultsAndCoverage() throws Exception {
        CliRun run = run("test", "--format", "json", "--coverage", failingSuite().toString());

        assertEquals(1, run.exit(), run.err());
        JsonNode json = Documents.parseJson(run.out().getBytes(StandardCharsets.UTF_8)).tree();
        assertEquals(2, json.path("tests").asInt());
        assertEquals(1, json.path("failed").asInt());
        assertEquals("fails", json.path("results").get(1).path("name").asText());
        assertEquals("$.outcome: expected \"NO_MATCH\", actual \"SELECTED\"", json.path("results").get(1).path("mismatches").get(0).asText());
        assertTrue(json.path("coverage").path("notFired").size() > 0, run.out());
        assertTrue(json.path("coverage").path("percent").isNumber(), run.out());
    }

    @Test
    void helpShowsAnExample() {
        CliRun run = run("test", "--help");

        assertEquals(0, run.exit());
        assertTrue(run.out().contains("arbiter test docs/examples/tests"), run.out());
        assertTrue(run.out().contains("--junit"), run.out());
        assertTrue(run.out().contains("--policy"), "the snapshot options of serve: " + run.out());
    }
}
