package io.arbiter.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionLogReaderTest {

    @TempDir
    Path temp;

    private static String record(String id, String interfacePath, String outcome, String... rules) {
        StringBuilder firings = new StringBuilder();
        for (int i = 0; i < rules.length; i++) {
            firings.append(i == 0 ? "" : ",").append("{\"rule\":\"").append(rules[i]).append("\",\"order\":").append(i + 1).append("}");
        }
        String request = interfacePath == null ? "{}" : "{\"interface\":{\"path\":\"" + interfacePath + "\"}}";
        return "{\"decisionId\":\"" + id + "\",\"endpoint\":\"" + (interfacePath == null ? "rollout" : "implementation")
                + "\",\"request\":" + request + ",\"outcome\":\"" + outcome + "\",\"result\":{\"firedRules\":[" + firings + "]}}\n";
    }

    private Path file(String name, String... lines) throws IOException {
        return Files.writeString(temp.resolve(name), String.join("", lines));
    }

    @Test
    void aLogAndItsRotatedFilesAreSummarisedTogetherBySubject() throws Exception {
        Path current = file("d.log", record("d-3", "cap.interface.a", "SELECTED", "p.A", "p.B"),
                record("d-4", null, "DECIDED", "p.R"));
        Path rotated = file("d.log.1", record("d-1", "cap.interface.a", "NO_MATCH", "p.A"),
                record("d-2", "cap.interface.b", "SELECTED", "p.C"));
        List<DecisionLogReader.Unreadable> unreadable = new ArrayList<>();

        List<DecisionLogReader.Subject> summary = new DecisionLogReader(List.of(rotated, current), unreadable::add).summary();

        assertEquals(List.of("cap.interface.a", "cap.interface.b", "rollout"), summary.stream().map(DecisionLogReader.Subject::name).toList());
        assertEquals(Map.of("SELECTED", 1, "NO_MATCH", 1), summary.get(0).outcomes());
        assertEquals(List.of(Map.entry("p.A", 2), Map.entry("p.B", 1)), summary.get(0).mostFired(5));
        assertEquals(List.of(Map.entry("p.A", 2)), summary.get(0).mostFired(1));
        assertEquals(Map.of("DECIDED", 1), summary.get(2).outcomes(), "decisions without an Interface go by endpoint");
        assertTrue(unreadable.isEmpty(), unreadable.toString());
    }

    @Test
    void aSummarisedRecordCountsItsFiringsPerRule() throws Exception {
        Path log = temp.resolve("d.log");
        Audit audit = new Audit(new FileDecisionLog(log, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        var result = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("decisionId", "d-1").put("outcome", "SELECTED");
        var fired = result.putArray("firedRules");
        for (int i = 0; i < 3_000; i++) {
            fired.addObject().put("rule", i % 3 == 0 ? "p.A" : "p.B").put("order", i + 1).putArray("facts").add("fact-" + i);
        }
        String request = "{\"interface\":{\"path\":\"cap.interface.a\"}}";
        audit.record(Decideds.of(audit, "implementation", request.getBytes(StandardCharsets.UTF_8),
                io.arbiter.document.Documents.jsonMapper().readTree(request), result), 1_000);
        audit.close();
        Files.writeString(log, record("d-2", "cap.interface.a", "SELECTED", "p.A"), java.nio.file.StandardOpenOption.APPEND);

        List<DecisionLogReader.Subject> summary = new DecisionLogReader(List.of(log), unreadable -> {
            throw new AssertionError(unreadable.toString());
        }).summary();

        assertTrue(Files.readString(log).contains("\"summarised\""), "the first record is summarised");
        assertEquals(List.of(Map.entry("p.B", 2_000), Map.entry("p.A", 1_001)), summary.get(0).mostFired(5));
    }

    @Test
    void equallyFiredRulesAreListedByName() {
        var subject = new DecisionLogReader.Subject("s", Map.of(), Map.of("p.Z", 3, "p.B", 3, "p.A", 1, "p.C", 3));

        assertEquals(List.of("p.B", "p.C", "p.Z"), subject.mostFired(3).stream().map(Map.Entry::getKey).toList());
        assertEquals(List.of(), subject.mostFired(0));
    }

    @Test
    void linesThatAreNotRecordsAreReportedWithFileAndLineAndTheRestIsRead() throws Exception {
        Path log = temp.resolve("d.log");
        Files.write(log, concat(record("d-1", "cap.interface.a", "SELECTED", "p.A").getBytes(StandardCharsets.UTF_8),
                "{\"decisionId\": \"d-2\", trunc\n".getBytes(StandardCharsets.UTF_8),
                "[1, 2]\n".getBytes(StandardCharsets.UTF_8),
                new byte[]{'{', '"', (byte) 0xC3, (byte) 0x28, '"', '\n'},
                record("d-5", "cap.interface.a", "SELECTED", "p.A").getBytes(StandardCharsets.UTF_8)));
        List<DecisionLogReader.Unreadable> unreadable = new ArrayList<>();

        List<DecisionLogReader.Subject> summary = new DecisionLogReader(List.of(log), unreadable::add).summary();

        assertEquals(Map.of("SELECTED", 2), summary.get(0).outcomes());
        assertEquals(List.of(2L, 3L, 4L), unreadable.stream().map(DecisionLogReader.Unreadable::line).toList());
        assertTrue(unreadable.get(0).toString().startsWith(log + ":2: not a decision record: "), unreadable.get(0).toString());
        assertEquals("not a JSON object", unreadable.get(1).reason());
    }

    /** One line past the bound is reported where it is and skipped unheld; lines up to the bound are records. */
    @Test
    void aLineLongerThanTheBoundIsReportedAndSkippedAndTheRestIsRead() throws Exception {
        int bound = 20_000; // longer than the reader's buffer, so that a line spans several reads
        String first = record("d-1", "cap.interface.a", "SELECTED", "p.A");
        String atTheBound = record("d-3", "cap.interface.a", "SELECTED", "p.A").stripTrailing();
        atTheBound = atTheBound + " ".repeat(bound - atTheBound.length()) + "\r\n";
        Path log = file("d.log", first, "x".repeat(bound + 1) + "\n", atTheBound, "y".repeat(3 * bound));
        List<DecisionLogReader.Unreadable> unreadable = new ArrayList<>();

        List<DecisionLogReader.Subject> summary = new DecisionLogReader(List.of(log), bound, unreadable::add).summary();

        assertEquals(Map.of("SELECTED", 2), summary.get(0).outcomes());
        assertEquals(List.of(log + ":2", log + ":4"), unreadable.stream().map(u -> u.source() + ":" + u.line()).toList());
        assertEquals(log + ":2: not a decision record: the line is longer than 20000 characters, more than any record"
                + " the service writes; it was skipped unread", unreadable.get(0).toString());
    }

    @Test
    void oneDecisionIsFoundInWhicheverFileHoldsIt() throws Exception {
        Path current = file("d.log", record("d-2", "cap.interface.a", "SELECTED", "p.A"));
        Path rotated = file("d.log.1", record("d-1", "cap.interface.b", "NO_MATCH"));
        DecisionLogReader reader = new DecisionLogReader(List.of(current, rotated), line -> {
        });

        assertEquals("cap.interface.b", reader.find("d-1").orElseThrow().path("request").path("interface").path("path").asText());
        assertEquals("SELECTED", reader.find("d-2").orElseThrow().path("outcome").asText());
        assertTrue(reader.find("d-9").isEmpty());
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
