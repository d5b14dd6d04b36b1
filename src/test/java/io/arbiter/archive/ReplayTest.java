package io.arbiter.archive;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.DecisionLogReader;
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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A logged decision of each kind, replayed under the archived snapshot it was decided with. */
class ReplayTest {

    static final PolicyTypeRegistry REGISTRY = PolicyTypeRegistry.discover();

    /** One request of each kind, and one whose inline policy carries a parameter value (logged masked). */
    static final Map<String, String> REQUESTS = new LinkedHashMap<>();

    static {
        REQUESTS.put("implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
        REQUESTS.put("backend", "{\"typeRefs\": [{\"path\": \"cap.type.helm.release.storage\", \"revision\": \"0.1.0\"}]}");
        REQUESTS.put("step", """
                {"interface": {"path": "cap.interface.database.postgresql.install"},
                 "actionPolicy": {"apiVersion": "0.2.0", "typeInstance": {"rules": [
                   {"typeRef": {"path": "cap.type.database.postgresql.config", "revision": "0.1.0"},
                    "backend": {"id": "c268d3f5-8834-434b-bea2-b677793611c5"}}]}}}
                """);
        REQUESTS.put("dependencies", """
                {"apiVersion": "0.1.0", "clusterNamespace": "local-cluster",
                 "policies": [{"name": "app", "namespace": "policies",
                   "dependencies": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy", "name": "setup", "compliance": "Compliant"}],
                   "policyTemplates": [{"name": "app-config", "kind": "ConfigurationPolicy", "extraDependencies": [], "ignorePending": false, "applied": false}]}],
                 "observed": [{"apiVersion": "policy.open-cluster-management.io/v1", "kind": "Policy", "name": "policies.setup",
                   "namespace": "local-cluster", "compliant": "NonCompliant", "totalViolations": null}]}
                """);
        REQUESTS.put("rollout", """
                {"apiVersion": "0.1.0", "remediationAction": "enforce",
                 "strategy": {"type": "Progressive", "progressive": {"minSuccessTime": "60s", "progressDeadline": "10m",
                   "maxFailures": "10%", "maxConcurrency": 2, "mandatoryDecisionGroups": [{"groupName": "canary"}]}},
                 "decisionGroups": [{"groupName": "canary", "groupIndex": 0, "clusters": ["c1", "c2"]},
                   {"groupName": "", "groupIndex": 1, "clusters": ["c3", "c4"]}],
                 "clusters": [{"name": "c1", "status": "Succeeded", "lastTransitionTime": "2026-01-01T00:08:00Z"},
                   {"name": "c3", "status": "Progressing", "lastTransitionTime": "2026-01-01T00:09:30Z"}]}
                """);
    }

    static final String MASKED = """
            {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
             "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
               "oneOf": [{"implementationConstraints": {"path": "cap.implementation.aws.rds.postgresql.install"},
                 "inject": {"requiredTypeInstances": [{"id": "517cf827-233c-4bf1-8fc9-48534424dd58", "description": "AWS credentials"}],
                   "additionalParameters": [{"name": "additional-parameters", "value": {"region": "us-east-1"}}]}}]}]}}}
            """;

    static Snapshot embedded;

    @TempDir
    static Path dir;
    static Path log;
    static Path archiveDir;
    /** The decision id of each request, by kind ("masked" for the masked one). */
    static final Map<String, String> IDS = new LinkedHashMap<>();

    @BeforeAll
    static void decideAndArchive() throws Exception {
        embedded = SnapshotLoader.load(Settings.embedded(), REGISTRY);
        log = dir.resolve("decisions.log");
        archiveDir = dir.resolve("archive");
        Audit audit = new Audit(new FileDecisionLog(log, 1 << 24, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        Decisions decisions = new Decisions(REGISTRY, embedded, audit);
        SnapshotArchive.at(archiveDir, 5).write(embedded, Instant.now());
        REQUESTS.forEach((kind, body) -> IDS.put(kind, decisions.decide(kind, body.getBytes(StandardCharsets.UTF_8), "application/json")
                .path("decisionId").asText()));
        IDS.put("masked", decisions.decide("implementation", MASKED.getBytes(StandardCharsets.UTF_8), "application/json")
                .path("decisionId").asText());
        IDS.put("summarised", decisions.decide("backend", CostlyRequests.bytes(CostlyRequests.backendPatterns(8, 12)),
                "application/json").path("decisionId").asText());
        IDS.put("withoutRequest", decisions.decide("backend", CostlyRequests.bytes(CostlyRequests.backendUnmatchedTypes(500)),
                "application/json").path("decisionId").asText());
        audit.close();
    }

    static JsonNode record(String id) throws Exception {
        return new DecisionLogReader(List.of(log), unreadable -> { throw new AssertionError(unreadable.toString()); })
                .find(id).orElseThrow();
    }

    @Test
    void aLoggedDecisionOfEachKindReplaysIdentically() throws Exception {
        SnapshotArchive archive = SnapshotArchive.at(archiveDir, 5);
        for (String kind : REQUESTS.keySet()) {
            Replay.Report report = Replay.replay(record(IDS.get(kind)), archive, REGISTRY);

            assertTrue(report.found(), kind);
            assertEquals(embedded.revision(), report.snapshot().snapshotRevision(), kind);
            assertTrue(report.identical(), kind + ": " + report.changes() + " " + report.firedOnlyBefore() + " " + report.firedOnlyAfter());
            assertFalse(report.after().firings().isEmpty(), kind + " fired no rule");
            assertEquals(kind.equals("rollout") ? 1 : 0, report.notes().size(), kind + ": " + report.notes());
        }
    }

    @Test
    void theImplementationReplayComparesTheFiringsItsRecordCarries() throws Exception {
        Replay.Report report = Replay.replay(record(IDS.get("implementation")), SnapshotArchive.at(archiveDir, 5), REGISTRY);

        assertFalse(report.before().firings().isEmpty());
        assertEquals(report.before().firings().size(), record(IDS.get("implementation")).path("result").path("firedRules").size());
        assertEquals(report.before().firings(), report.after().firings());
    }

    @Test
    void aMaskedRequestIsSaidToBeMasked() throws Exception {
        JsonNode record = record(IDS.get("masked"));
        assertTrue(record.toString().contains("\"***\""), record.toString());

        Replay.Report report = Replay.replay(record, SnapshotArchive.at(archiveDir, 5), REGISTRY);

        assertTrue(report.found());
        assertTrue(report.notes().stream().anyMatch(note -> note.contains("logged with masked parameter values")), report.notes().toString());
    }

    @Test
    void aChangedArchivedPartIsReportedWithWhatItChanged(@TempDir Path copy) throws Exception {
        TestFiles.copyTree(archiveDir, copy);
        Path policy = copy.resolve("parts/policy/" + embedded.policy().revision() + ".json");
        // the archived policy no longer prefers Implementations that run on Kubernetes
        Files.writeString(policy, Files.readString(policy).replace("cap.*", "cap.interface.other.*"));

        Replay.Report report = Replay.replay(record(IDS.get("implementation")), SnapshotArchive.at(copy, 5), REGISTRY);

        assertTrue(report.found());
        assertFalse(report.identical());
        assertTrue(report.notes().stream().anyMatch(note -> note.contains("policy " + embedded.policy().revision())
                && note.contains("was changed after it was archived")), report.notes().toString());
        assertEquals("SELECTED", report.before().outcome());
        assertEquals("NO_RULE", report.after().outcome());
        assertTrue(report.changes().containsKey("outcome"), report.changes().toString());
        assertFalse(report.firedOnlyAfter().isEmpty());
    }

    @Test
    void aSnapshotLiveAgainAfterTheDecisionIsSaidToBeLiveFromTheTimeBeforeIt(@TempDir Path copy) throws Exception {
        TestFiles.copyTree(archiveDir, copy);
        SnapshotArchive archive = SnapshotArchive.at(copy, 5);
        String first = archive.manifest(embedded.revision()).orElseThrow().wentLive();
        // another snapshot was live in between; this one went live again an hour after the decisions
        Instant again = Instant.now().plusSeconds(3_600);
        archive.write(embedded, again);

        Replay.Report report = Replay.replay(record(IDS.get("implementation")), archive, REGISTRY);
        java.io.StringWriter text = new java.io.StringWriter();
        ReplayText.print(report, copy, new java.io.PrintWriter(text, true));

        assertEquals(List.of(first, again.toString()), report.snapshot().liveFrom());
        assertTrue(text.toString().contains("(live from " + first + ";"), text.toString());
        assertFalse(text.toString().contains(again.toString()), text.toString());
    }

    @Test
    void noArchivedSnapshotIsNotFoundWithTheRevisionsLookedFor(@TempDir Path empty) throws Exception {
        Replay.Report report = Replay.replay(record(IDS.get("backend")), SnapshotArchive.at(empty, 5), REGISTRY);

        assertFalse(report.found());
        assertFalse(report.identical());
        assertEquals(embedded.catalog().revision(), report.lookedFor().get("catalogRevision"));
        assertEquals(embedded.ruleBase("capact.backend").revision(), report.lookedFor().get("rulesRevision"));
    }

    @Test
    void aSummarisedRecordWithItsRequestReplaysComparingEachRulesCount() throws Exception {
        JsonNode record = record(IDS.get("summarised"));
        assertTrue(record.path("summarised").isObject() && record.path("request").isObject(), record.toString());

        Replay.Report report = Replay.replay(record, SnapshotArchive.at(archiveDir, 5), REGISTRY);

        assertTrue(report.identical(), report.changes() + " " + report.firedOnlyBefore() + " " + report.firedOnlyAfter());
        assertEquals(record.path("summarised").path("firings").path("count").asInt(), report.after().firings().size());
        assertTrue(report.notes().stream().anyMatch(note -> note.contains("was summarised")
                && note.contains("compared by how often each rule fired")), report.notes().toString());
    }

    @Test
    void aSummarisedRecordWithoutItsRequestCannotBeReplayedFromTheLogAndSaysSo() throws Exception {
        JsonNode record = record(IDS.get("withoutRequest"));
        assertFalse(record.has("request"), record.toString());

        ArchiveException refused = assertThrows(ArchiveException.class,
                () -> Replay.replay(record, SnapshotArchive.at(archiveDir, 5), REGISTRY));

        assertTrue(refused.getMessage().contains("was summarised") && refused.getMessage().contains("request (")
                && refused.getMessage().contains("cannot be replayed from the log itself")
                && refused.getMessage().contains(record.path("requestDigest").asText()), refused.getMessage());
    }
}
