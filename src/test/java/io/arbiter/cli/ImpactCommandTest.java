package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code arbiter impact} on the README's worked example: the backend-priority table with the exact-path row moved
 * below the patterns, against the packaged one, over the example's catalog sweep and decision log.
 */
class ImpactCommandTest {

    private static final Path EXAMPLE = Path.of("docs/examples/impact");

    @TempDir
    static Path candidate;

    private static CliRun run(String... args) {
        return CliRun.run(args);
    }

    /** The candidate: the packaged rules and tables, the PATH row of backend-priority moved after the PATTERN row. */
    @BeforeAll
    static void editTheTable() throws IOException {
        for (String folder : List.of("rules", "decision-tables")) {
            TestFiles.copyTree(Path.of(folder), candidate.resolve(folder));
            // the test plugin's policy type (on the test classpath) has its rules there too
            TestFiles.copyTree(Path.of("src/test/resources", folder), candidate.resolve(folder));
        }
        Path table = candidate.resolve("decision-tables/backend/backend-priority.drl.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(table));
        String pathRow = lines.stream().filter(line -> line.startsWith("Exact path without revision,")).findFirst().orElseThrow();
        lines.remove(pathRow);
        lines.add(pathRow);
        Files.write(table, lines);
    }

    private static String[] example(String... more) {
        List<String> args = new ArrayList<>(List.of("impact", "--policy", EXAMPLE.resolve("policy.yaml").toString(),
                "--type-instances", EXAMPLE.resolve("type-instances.yaml").toString(),
                "--candidate-rules", candidate.resolve("rules").toString(),
                "--candidate-decision-tables", candidate.resolve("decision-tables").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void theTableEditChangesTheBackendOfAwsCredentialsInTheSweepAndTheLog() throws IOException {
        CliRun run = run(example("--sweep", "--replay", EXAMPLE.resolve("decisions.log").toString(), "--format", "json"));

        assertEquals(0, run.exit(), run.err());
        JsonNode report = Documents.jsonMapper().readTree(run.out());
        assertEquals(3, report.path("changed").asInt(), run.out());
        assertEquals(1, report.path("bySource").path("sweep").path("changed").asInt(), run.out());
        assertEquals(2, report.path("bySource").path("replay").path("changed").asInt(), "both logged decisions about AWS credentials");
        assertEquals(0, report.path("byKind").path("implementation").path("changed").asInt(), run.out());
        assertEquals(report.path("byKind").path("implementation").path("decisions").asInt(),
                report.path("byKind").path("implementation").path("unaffected").asInt(),
                "the implementation rule base, policy, catalog and store are the same: nothing to decide");
        assertEquals(1, report.path("byKind").path("rollout").path("unaffected").asInt(), run.out());
        JsonNode change = report.path("changes").path(0);
        assertEquals("PATH", change.path("fields").path("backends[0].matchedBy").path("before").asText(), change.toString());
        assertEquals("PATTERN", change.path("fields").path("backends[0].matchedBy").path("after").asText());
        assertEquals(List.of("io.arbiter.rules.backend.Exact path without revision"),
                Documents.jsonMapper().convertValue(change.path("firedOnlyBefore"), List.class));
        assertEquals(List.of("io.arbiter.rules.backend.Longest pattern without revision"),
                Documents.jsonMapper().convertValue(change.path("firedOnlyAfter"), List.class));
    }

    @Test
    void textOutputIsATableAndEachChangeAndFailOnChangeGates() {
        CliRun run = run(example("--fail-on-change"));

        assertEquals(1, run.exit(), run.err());
        assertTrue(run.out().contains("CHANGED backend (sweep): cap.type.aws.auth.credentials:0.1.0"), run.out());
        assertTrue(run.out().contains("backends[0].matchedBy: \"PATH\" -> \"PATTERN\""), run.out());
        assertTrue(run.out().lines().anyMatch(line -> line.matches("backend\\s+\\d+\\s+1\\s+0\\s+0")), run.out());
    }

    @Test
    void testsRunUnderBothAndATestTheEditBreaksIsListedFirst() throws IOException {
        CliRun run = run(example("--tests", EXAMPLE.resolve("tests").toString(), "--format", "json"));

        assertEquals(0, run.exit(), run.err());
        JsonNode report = Documents.jsonMapper().readTree(run.out());
        assertEquals(2, report.path("tests").path("tests").asInt(), run.out());
        assertEquals(2, report.path("tests").path("passedBefore").asInt());
        assertEquals(1, report.path("tests").path("passedAfter").asInt());
        JsonNode broken = report.path("changes").path(0);
        assertEquals("test", broken.path("source").asText(), run.out());
        assertTrue(broken.path("test").path("passedBefore").asBoolean());
        assertTrue(!broken.path("test").path("passedAfter").asBoolean());
        assertTrue(broken.path("test").path("mismatchesAfter").toString().contains("PATTERN"), broken.toString());
        assertEquals(0, report.path("bySource").path("sweep").path("decisions").asInt(),
                "with --tests alone nothing is swept unless --sweep is given");
    }

    @Test
    void aHostileLogIsReportedLineByLineAndItsRequestsAreRefusedAlikeOnBothSides(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("hostile.log");
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes("not json at all\n".getBytes());
        bytes.writeBytes(new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}', '\n'});
        bytes.writeBytes(("{\"decisionId\": \"deep\", \"endpoint\": \"implementation\", \"request\": {\"interface\": " + deep + "}}\n").getBytes());
        bytes.writeBytes("{\"decisionId\": \"big\", \"endpoint\": \"rollout\", \"request\": {\"strategy\": {\"type\": \"All\"}, \"clusters\": [], \"decisionGroups\": [{\"groupName\": \"g\", \"groupIndex\": 1e400, \"clusters\": []}]}}\n".getBytes());
        bytes.writeBytes("{\"decisionId\": \"odd\", \"endpoint\": \"../admin\", \"request\": {}}\n".getBytes());
        bytes.writeBytes("{\"decisionId\": \"norequest\", \"endpoint\": \"backend\"}\n".getBytes());
        Files.write(log, bytes.toByteArray());

        CliRun run = run("impact", "--candidate-policy", EXAMPLE.resolve("policy.yaml").toString(), "--replay", log.toString(),
                "--format", "json");

        assertEquals(0, run.exit(), run.err());
        assertTrue(!run.err().contains("\tat "), "no stack trace: " + run.err());
        JsonNode report = Documents.jsonMapper().readTree(run.out());
        assertEquals(0, report.path("changed").asInt(), "refused alike on both sides: " + run.out());
        // the rollout record (unaffected by a policy) and the unknown target (refused alike); the rest is skipped
        assertEquals(2, report.path("bySource").path("replay").path("decisions").asInt(), run.out());
        assertEquals(1, report.path("unaffected").asInt(), run.out());
        String skipped = report.path("skipped").toString();
        assertTrue(skipped.contains("hostile.log:1: not a decision record"), skipped);
        assertTrue(skipped.contains("hostile.log:3: not a decision record") && skipped.contains("nesting depth"), skipped);
        assertTrue(skipped.contains("decision norequest: the record names no request"), skipped);
    }

    @Test
    void aSummarisedRecordWithoutItsRequestIsSkippedSayingWhy(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("decisions.log");
        var registry = io.arbiter.policytype.PolicyTypeRegistry.discover();
        var audit = new io.arbiter.audit.Audit(new io.arbiter.audit.FileDecisionLog(log, 1 << 24, 1, 100,
                io.arbiter.audit.DecisionLog.Mode.REQUIRED), new io.arbiter.audit.RecentDecisions(10),
                new io.arbiter.audit.Metrics(), false);
        String id = new io.arbiter.runtime.Decisions(registry, io.arbiter.runtime.SnapshotLoader.load(
                io.arbiter.decision.Settings.embedded(), registry), audit)
                .decide("backend", CostlyRequests.bytes(CostlyRequests.backendUnmatchedTypes(500)), "application/json")
                .path("decisionId").asText();
        audit.close();

        CliRun run = run("impact", "--candidate-policy", EXAMPLE.resolve("policy.yaml").toString(), "--replay", log.toString(),
                "--format", "json");

        assertEquals(0, run.exit(), run.err());
        JsonNode report = Documents.jsonMapper().readTree(run.out());
        assertEquals(0, report.path("bySource").path("replay").path("decisions").asInt(), run.out());
        String skipped = report.path("skipped").toString();
        assertTrue(skipped.contains("decision " + id + ": the record was summarised")
                && skipped.contains("cannot be replayed from the log"), skipped);
    }

    @Test
    void usageErrorsExit2WithOneLine() {
        CliRun noCandidate = run("impact");
        CliRun halfRules = run("impact", "--candidate-rules", "rules");
        CliRun missingLog = run("impact", "--candidate-policy", EXAMPLE.resolve("policy.yaml").toString(), "--replay", "no-such.log");
        CliRun badLimit = run("impact", "--candidate-policy", EXAMPLE.resolve("policy.yaml").toString(), "--limit", "-1");
        CliRun badPolicy = run("impact", "--candidate-policy", "pom.xml");
        CliRun badSuite = run("impact", "--candidate-policy", EXAMPLE.resolve("policy.yaml").toString(), "--tests", "pom.xml");

        for (CliRun refused : List.of(noCandidate, halfRules, missingLog, badLimit, badPolicy, badSuite)) {
            assertEquals(2, refused.exit(), refused.err());
            assertTrue(!refused.err().contains("\tat "), "no stack trace: " + refused.err());
        }
        assertTrue(noCandidate.err().contains("name a candidate"), noCandidate.err());
        assertTrue(missingLog.err().contains("no-such.log"), missingLog.err());
    }
}
