package io.arbiter.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.runtime.Decisions;
import io.arbiter.testing.CostlyRequests;
import io.arbiter.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 44: a record has a maximum size, so that no request can flush the audit trail with a few huge answers, and the
 * default retention keeps 20,000 decisions whatever the requests.
 */
class RecordBoundTest {

    @TempDir
    Path temp;

    private static Decisions decisions(Audit audit) {
        return new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
    }

    private static List<byte[]> lines(Path... files) throws IOException {
        List<byte[]> lines = new ArrayList<>();
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    lines.add(java.util.Arrays.copyOfRange(bytes, start, i + 1));
                    start = i + 1;
                }
            }
            assertEquals(bytes.length, start, file + " ends with a whole line");
        }
        return lines;
    }

    private static JsonNode parse(byte[] line) throws IOException {
        return Documents.jsonMapper().readTree(line);
    }

    private static Map<String, Long> countPerRule(JsonNode firedRules) {
        Map<String, Long> counts = new TreeMap<>();
        firedRules.forEach(firing -> counts.merge(firing.path("rule").asText(), 1L, Long::sum));
        return counts;
    }

    private static Map<String, Long> summaryPerRule(JsonNode record) {
        Map<String, Long> counts = new TreeMap<>();
        record.path("summarised").path("firings").path("byRule")
                .forEach(rule -> counts.merge(rule.path("rule").asText(), rule.path("count").asLong(), Long::sum));
        return counts;
    }

    private static Set<String> droppedFields(JsonNode record) {
        Set<String> fields = new LinkedHashSet<>();
        record.path("summarised").path("dropped").forEach(entry -> fields.add(entry.path("field").asText()));
        return fields;
    }

    private static String sha256(byte[] body) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }

    @Test
    void aBackendDecisionOfManyPatternRulesIsLoggedAsOneLineWithinTheBoundWithItsFiringsCountedPerRule() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        // the shape of issue 44's request, smaller so that the test is quick: its answer is still megabytes
        byte[] body = CostlyRequests.bytes(CostlyRequests.backendPatterns(30, 60));
        Decisions.Decided decided = decisions(audit).decideEncoded("backend", body, "application/json");
        audit.close();
        JsonNode answer = decided.response();
        assertTrue(decided.json().length > 50 * DecisionRecord.MAX_BYTES, "the answer is large: " + decided.json().length);

        List<byte[]> lines = lines(file);
        assertEquals(1, lines.size(), "one line");
        byte[] line = lines.get(0);
        assertTrue(line.length <= DecisionRecord.MAX_BYTES, "the line takes " + line.length + " bytes");
        JsonNode record = parse(line);
        assertEquals(answer.path("decisionId").asText(), record.path("decisionId").asText());
        JsonNode summarised = record.path("summarised");
        assertTrue(summarised.path("why").asText().contains("at most " + DecisionRecord.MAX_BYTES), summarised.toString());
        assertTrue(summarised.path("wholeBytes").asLong() > decided.json().length, summarised.toString());
        long firings = answer.path("firedRules").size();
        assertEquals(firings, summarised.path("firings").path("count").asLong());
        assertEquals(countPerRule(answer.path("firedRules")), summaryPerRule(record), "every rule's count, adding up to "
                + firings);
        JsonNode first = summarised.path("firings").path("byRule").get(0);
        assertEquals(answer.path("firedRules").get(0).path("rule").asText(), first.path("rule").asText());
        assertEquals(1, first.path("first").asLong(), "rules in first-firing order, with their first order");
        assertEquals(Set.of("result.firedRules", "request", "result.backends"), droppedFields(record));
        assertFalse(record.has("request"), "the request is kept by its digest");
        assertEquals(sha256(body), record.path("requestDigest").asText());
        for (String revision : List.of("policyRevision", "rulesRevision", "catalogRevision", "typeInstancesRevision")) {
            assertEquals(answer.path(revision).asText(), record.path("result").path(revision).asText(), revision);
        }
        assertEquals(new String(line, StandardCharsets.UTF_8).trim(),
                new String(audit.find(record.path("decisionId").asText()).orElseThrow().json(), StandardCharsets.UTF_8),
                "the recent-decision index keeps the same bounded record");
    }

    /** A result of {@code firings} firings of {@code rules} rules whose names are {@code nameLength} long. */
    private static ObjectNode result(String id, int firings, int rules, int nameLength) {
        ObjectNode result = Documents.jsonMapper().createObjectNode();
        result.put("decisionId", id).put("outcome", "SELECTED").put("policyRevision", "policy-1")
                .put("rulesRevision", "rules-1").put("catalogRevision", "catalog-1").put("typeInstancesRevision", "store-1");
        result.putObject("selected").put("path", "cap.implementation.x").put("revision", "0.1.0");
        ArrayNode fired = result.putArray("firedRules");
        for (int i = 0; i < firings; i++) {
            String rule = "p." + ("r" + (i % rules) + "-").repeat(nameLength)
                    .substring(0, nameLength);
            fired.addObject().put("rule", rule).put("order", i + 1).putArray("facts").add("fact-" + i).add("type-" + i);
        }
        return result;
    }

    private static void record(Audit audit, String request, ObjectNode result) throws IOException {
        audit.record(Decideds.of(audit, "implementation", request.getBytes(StandardCharsets.UTF_8), Documents.jsonMapper().readTree(request),
                result), 1_000);
    }

    @Test
    void aSmallRequestIsKeptWhenTheSummarisedFiringsLeaveRoomForIt() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        String request = "{\"interface\": {\"path\": \"cap.interface.x\"}}";
        ObjectNode result = result("d-1", 5_000, 7, 40);

        record(audit, request, result);
        audit.close();

        byte[] line = lines(file).get(0);
        assertTrue(line.length <= DecisionRecord.MAX_BYTES, "the line takes " + line.length + " bytes");
        JsonNode record = parse(line);
        assertEquals(Set.of("result.firedRules"), droppedFields(record));
        assertEquals(Documents.jsonMapper().readTree(request), record.path("request"), "the request fits: it is kept");
        assertEquals(result.path("selected"), record.path("result").path("selected"), "what was decided is kept");
        assertEquals(countPerRule(result.path("firedRules")), summaryPerRule(record));
    }

    @Test
    void firingsOfManyLongRulesAreCountedTogetherBeyondTheRoomAndStillAddUp() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        ObjectNode result = result("d-1", 20_000, 2_000, 200);

        record(audit, "{\"interface\": {\"path\": \"cap.interface.x\"}}", result);
        audit.close();

        byte[] line = lines(file).get(0);
        assertTrue(line.length <= DecisionRecord.MAX_BYTES, "the line takes " + line.length + " bytes");
        JsonNode firings = parse(line).path("summarised").path("firings");
        assertEquals(20_000, firings.path("count").asLong());
        long listed = 0;
        for (JsonNode rule : firings.path("byRule")) {
            listed += rule.path("count").asLong();
        }
        assertTrue(firings.path("byRule").size() > 0 && firings.path("byRule").size() < 2_000, firings.path("byRule").size() + " rules listed");
        assertEquals(2_000 - firings.path("byRule").size(), firings.path("otherRules").path("rules").asInt());
        assertEquals(20_000, listed + firings.path("otherRules").path("count").asLong(), "listed and counted together add up");
    }

    @Test
    void theDefaultRetentionKeepsTwentyThousandDecisionsWhateverTheRequests() {
        AuditSettings defaults = AuditSettings.OFF;
        assertEquals(20_480, defaults.worstCaseRetention(), "5 rotated files x 64 MiB / 16 KiB");
        assertTrue(defaults.worstCaseRetention() >= AuditSettings.MIN_DEFAULT_RETENTION);
    }

    /**
     * The default retention, scaled down 64 times (files of 1 MiB, not 64 MiB) so that the test is quick: records at the
     * bound rotate through every file, and the oldest decision the retention promises is still there.
     */
    @Test
    void recordsAtTheBoundRotateThroughTheFilesAndTheOldestPromisedIsKept() throws Exception {
        Path file = temp.resolve("decisions.log");
        AuditSettings scaled = AuditSettings.OFF.withRotation(AuditSettings.DEFAULT_MAX_BYTES / 64, AuditSettings.DEFAULT_KEEP_FILES);
        int promised = (int) scaled.worstCaseRetention();
        assertEquals(320, promised);
        FileDecisionLog log = new FileDecisionLog(file, scaled.maxBytes(), scaled.keepFiles(), 10_000, DecisionLog.Mode.REQUIRED);
        int written = promised + 100;
        for (int i = 1; i <= written; i++) {
            var appended = log.append(DecisionLogTest.sized("d-" + i, DecisionRecord.MAX_BYTES - 1)); // and its line end
            if (i == written) {
                appended.awaitWritten(); // the queue is written in order: the last written, all are
            }
        }
        log.close();

        List<Path> files = new ArrayList<>();
        for (int i = scaled.keepFiles(); i >= 1; i--) {
            files.add(file.resolveSibling("decisions.log." + i));
        }
        files.add(file);
        List<String> kept = new ArrayList<>();
        for (byte[] line : lines(files.toArray(Path[]::new))) {
            assertEquals(DecisionRecord.MAX_BYTES, line.length);
            kept.add(parse(line).path("decisionId").asText());
        }
        String oldestPromised = "d-" + (written - promised + 1);
        assertTrue(kept.contains(oldestPromised), oldestPromised + " is kept: " + kept.get(0) + " .. " + kept.get(kept.size() - 1));
        assertEquals("d-" + written, kept.get(kept.size() - 1));
    }

    /**
     * Huge decisions through the audit, not only records made to size: 400 of them keep the 320 newest in the scaled
     * log, and all 400 in the recent-decision index (GET /v1/decisions/{id}) within its default 64 MiB (whole, their
     * records would take 70 MB).
     */
    @Test
    void hugeDecisionsFlushNeitherTheLogNorTheRecentDecisionIndex() throws Exception {
        Path file = temp.resolve("decisions.log");
        AuditSettings scaled = AuditSettings.OFF.withRotation(AuditSettings.DEFAULT_MAX_BYTES / 64, AuditSettings.DEFAULT_KEEP_FILES);
        RecentDecisions recent = new RecentDecisions(1_000);
        Audit audit = new Audit(new FileDecisionLog(file, scaled.maxBytes(), scaled.keepFiles(), 10_000, DecisionLog.Mode.REQUIRED),
                recent, new Metrics(), false);
        ObjectNode result = result("d-0", 1_500, 9, 60); // about 180 KB of response
        String request = "{\"interface\": {\"path\": \"cap.interface.x\"}}";
        int written = 400;
        for (int i = 1; i <= written; i++) {
            result.put("decisionId", "d-" + i);
            record(audit, request, result);
        }
        audit.close();

        List<Path> files = new ArrayList<>();
        for (int i = scaled.keepFiles(); i >= 1; i--) {
            Path rotated = file.resolveSibling("decisions.log." + i);
            if (Files.exists(rotated)) {
                files.add(rotated);
            }
        }
        files.add(file);
        List<String> kept = new ArrayList<>();
        for (byte[] line : lines(files.toArray(Path[]::new))) {
            assertTrue(line.length <= DecisionRecord.MAX_BYTES, line.length + " bytes");
            kept.add(parse(line).path("decisionId").asText());
        }
        String oldestPromised = "d-" + (written - scaled.worstCaseRetention() + 1);
        assertTrue(kept.contains(oldestPromised), oldestPromised + " is kept: " + kept.get(0) + " .. " + kept.get(kept.size() - 1));
        assertEquals(written, recent.size(), "the index forgets none of them");
        assertTrue(audit.metrics().scrape().contains("arbiter_decision_log_summarised " + written + ".0"),
                "each is counted as summarised");
        assertTrue(audit.find("d-1").isPresent());
        assertTrue(recent.retainedBytes() <= (long) written * DecisionRecord.MAX_BYTES, recent.retainedBytes() + " bytes");
    }
}
