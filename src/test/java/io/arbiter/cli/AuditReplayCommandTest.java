package io.arbiter.cli;

import io.arbiter.archive.SnapshotArchive;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.decision.Settings;
import io.arbiter.decision.Snapshot;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.runtime.SnapshotLoader;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code arbiter audit --id ID --replay LOG... --archive DIR}: its report and exit codes. */
class AuditReplayCommandTest {

    @TempDir
    static Path dir;
    static Path log;
    static Path archive;
    static Snapshot embedded;
    static String id;
    /** A backend decision whose record was summarised without its request. */
    static String summarisedId;

    private static CliRun run(String... args) {
        return CliRun.run(args);
    }

    @BeforeAll
    static void decideAndArchive() throws Exception {
        PolicyTypeRegistry registry = PolicyTypeRegistry.discover();
        embedded = SnapshotLoader.load(Settings.embedded(), registry);
        log = dir.resolve("decisions.log");
        archive = dir.resolve("archive");
        Audit audit = new Audit(new FileDecisionLog(log, 1 << 24, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        Decisions decisions = new Decisions(registry, embedded, audit);
        SnapshotArchive.at(archive, 5).write(embedded, Instant.now());
        id = decisions.decide("implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}".getBytes(),
                "application/json").path("decisionId").asText();
        summarisedId = decisions.decide("backend", CostlyRequests.bytes(CostlyRequests.backendUnmatchedTypes(500)), "application/json")
                .path("decisionId").asText();
        audit.close();
    }

    @Test
    void aSummarisedRecordWithoutItsRequestExitsOneSayingItCannotBeReplayedFromTheLog() {
        CliRun run = run("audit", "--id", summarisedId, "--replay", log.toString(), "--archive", archive.toString());

        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains("was summarised to fit the decision log's bound")
                && run.err().contains("cannot be replayed from the log itself"), run.err());
        assertFalse(run.out().contains("IDENTICAL"), run.out());
    }

    @Test
    void anIdenticalReplayExitsZero() {
        CliRun run = run("audit", "--id", id, "--replay", log.toString(), "--archive", archive.toString());

        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("replayed under snapshot " + embedded.revision()), run.out());
        assertTrue(run.out().contains("IDENTICAL: outcome SELECTED"), run.out());
    }

    /** The replay example of docs/audit.md: its audit command, run on a log and an archive of our own, prints what it shows. */
    @Test
    void theReadmeExampleRunsAndPrintsWhatItShows() throws Exception {
        String readme = Files.readString(Path.of("docs/audit.md"));
        int marker = readme.indexOf("<!-- example: arbiter audit --replay -->");
        assertTrue(marker >= 0, "docs/audit.md has no replay example");
        java.util.regex.Matcher blocks = java.util.regex.Pattern.compile("```(sh|text)\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(readme.substring(marker));
        assertTrue(blocks.find());
        String command = blocks.group(2).lines().filter(line -> line.startsWith("java -jar target/arbiter.jar audit"))
                .findFirst().orElseThrow();
        assertTrue(blocks.find());
        List<String> shown = blocks.group(2).lines().toList();
        // the walkthrough's shell variables: ReadmeWalkthroughIT runs it whole, on the packaged jar
        String[] args = command.substring("java -jar target/arbiter.jar ".length()).replace("\"$id\"", id)
                .replace("\"$work\"/arbiter-decisions.log*", log.toString()).replace("\"$work\"/snapshots", archive.toString())
                .split(" ");

        CliRun run = run(args);

        assertEquals(0, run.exit(), run.out() + run.err());
        List<String> printed = run.out().lines().toList();
        assertEquals(shown.size(), printed.size(), run.out());
        for (int i = 0; i < shown.size(); i++) {
            String pattern = java.util.Arrays.stream(shown.get(i).split("…", -1))
                    .map(java.util.regex.Pattern::quote).collect(java.util.stream.Collectors.joining(".*"));
            assertTrue(printed.get(i).matches(pattern), "docs/audit.md shows '" + shown.get(i) + "', the command printed '" + printed.get(i) + "'");
        }
    }

    @Test
    void theLogMayBeNamedAsAFile() {
        CliRun run = run("audit", log.toString(), "--id", id, "--archive", archive.toString());

        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("IDENTICAL"), run.out());
    }

    @Test
    void aDifferentReplayExitsOneAndSaysWhatDiffers(@TempDir Path copy) throws Exception {
        TestFiles.copyTree(archive, copy);
        Path policy = copy.resolve("parts/policy/" + embedded.policy().revision() + ".json");
        Files.writeString(policy, Files.readString(policy).replace("cap.*", "cap.interface.other.*"));

        CliRun run = run("audit", "--id", id, "--replay", log.toString(), "--archive", copy.toString());

        assertEquals(1, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("DIFFERENT: outcome SELECTED logged, NO_RULE replayed"), run.out());
        assertTrue(run.out().contains("  outcome:\n    before: \"SELECTED\"\n    after:  \"NO_RULE\""), run.out());
        assertTrue(run.out().contains("fired only after:  io.arbiter.rules.implementation."), run.out());
        assertTrue(run.out().contains("note: the archived part policy " + embedded.policy().revision()), run.out());
    }

    @Test
    void noArchivedSnapshotExitsOneNamingTheRevisions(@TempDir Path empty) {
        CliRun run = run("audit", "--id", id, "--replay", log.toString(), "--archive", empty.toString());

        assertEquals(1, run.exit());
        assertTrue(run.out().contains("NOT FOUND: no snapshot in the archive " + empty), run.out());
        assertTrue(run.out().contains("snapshotRevision=" + embedded.revision()), run.out());
    }

    @Test
    void aDamagedArchiveIsOneClearLine(@TempDir Path copy) throws Exception {
        TestFiles.copyTree(archive, copy);
        Files.writeString(copy.resolve("parts/catalog/" + embedded.catalog().revision() + ".json"), "{\"implementations\": 5}");

        CliRun run = run("audit", "--id", id, "--replay", log.toString(), "--archive", copy.toString());

        assertEquals(1, run.exit());
        assertTrue(run.err().startsWith("arbiter audit: the catalog part " + embedded.catalog().revision()), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void usageErrorsExitTwo() {
        CliRun noArchive = run("audit", "--id", id, "--replay", log.toString());
        CliRun noId = run("audit", "--replay", log.toString(), "--archive", archive.toString());
        CliRun unknownId = run("audit", "--id", "nope", "--replay", log.toString(), "--archive", archive.toString());
        CliRun noArchiveFolder = run("audit", "--id", id, "--replay", log.toString(), "--archive", log.toString());

        assertEquals(2, noArchive.exit());
        assertTrue(noArchive.err().contains("--replay needs --archive DIR"), noArchive.err());
        assertEquals(2, noId.exit());
        assertTrue(noId.err().contains("name it with --id"), noId.err());
        assertEquals(1, unknownId.exit());
        assertTrue(unknownId.err().contains("no decision nope"), unknownId.err());
        assertEquals(1, noArchiveFolder.exit());
        assertTrue(noArchiveFolder.err().contains("is not a folder"), noArchiveFolder.err());
    }
}
