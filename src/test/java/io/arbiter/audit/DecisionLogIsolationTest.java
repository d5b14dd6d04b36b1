package io.arbiter.audit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import io.arbiter.document.Documents;
import io.arbiter.engine.RecordedFirings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One record cannot poison the decision log: a record the writer cannot serialise fails alone, is counted and
 * reported with its decision id, and the records after it are written. The records are built in-process, past the
 * HTTP edge (which refuses such text in requests), since the log must hold whatever reaches it. The poison is the
 * one found in the wild: a lone UTF-16 surrogate in a request string becomes part of a fact's id, and a recorded
 * fact id is escaped by an encoder that refuses it.
 */
class DecisionLogIsolationTest {

    /** A lone high surrogate: there is no UTF-8 for it. */
    private static final String LONE_SURROGATE = "a\ud800";

    @TempDir
    Path temp;

    private ListAppender<ILoggingEvent> logged;

    @BeforeEach
    void captureLog() {
        logged = new ListAppender<>();
        logged.start();
        ((Logger) LoggerFactory.getLogger(FileDecisionLog.class)).addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        ((Logger) LoggerFactory.getLogger(FileDecisionLog.class)).detachAppender(logged);
    }

    private static DecisionRecord record(String id, JsonNode request) {
        return new DecisionRecord(id, "2026-11-23T00:00:00Z", "implementation", "sha256:ab", request, null, "rules-1", "catalog-1", "store-1",
                "SELECTED", Documents.jsonMapper().createObjectNode().put("decisionId", id), 1);
    }

    private static DecisionRecord good(String id) {
        return record(id, Documents.jsonMapper().createObjectNode().put("cluster", "c-" + id));
    }

    private static DecisionRecord poisoned(String id) {
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.putArray("clusters").addObject().put("name", LONE_SURROGATE);
        ObjectNode result = Documents.jsonMapper().createObjectNode().put("decisionId", id);
        result.set("firedRules", RecordedFirings.matching("cluster " + LONE_SURROGATE));
        return new DecisionRecord(id, "2026-11-23T00:00:00Z", "rollout", "sha256:ab", request, null, "rules-1", "catalog-1", "store-1",
                "DECIDED", result, 1);
    }

    private static List<String> loggedIds(Path file) throws IOException {
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            ids.add(Documents.jsonMapper().readTree(line).path("decisionId").asText());
        }
        return ids;
    }

    private static List<String> goodIds(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            ids.add("good-" + i);
        }
        return ids;
    }

    private boolean reported(String decisionId) {
        return logged.list.stream().anyMatch(event -> event.getFormattedMessage().contains(decisionId));
    }

    @Test
    void anUnserialisableRecordIsCountedAndReportedAndTheNextHundredAreWritten() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);

        log.append(poisoned("poisoned-1"), 1_000);
        goodIds(100).forEach(id -> log.append(good(id), 1_000));
        log.close();

        assertEquals(1, log.failed());
        assertEquals(100, log.written());
        assertEquals(0, log.dropped());
        assertEquals(goodIds(100), loggedIds(file), "every later record, whole, in order");
        DecisionLog.Health health = log.health();
        assertTrue(health.lastError().contains("poisoned-1") && health.lastError().contains("not valid Unicode"),
                health.lastError());
        assertTrue(health.lastErrorAt() != null && health.writable(), health.toString());
        assertTrue(reported("poisoned-1"), "the server log names the decision: " + logged.list);
    }

    @Test
    void laterPoisonedRecordsKeepFailingAloneWhileTheWriterRuns() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);

        for (int round = 1; round <= 3; round++) {
            log.append(poisoned("poisoned-" + round), 1_000);
            int expected = round * 10;
            for (int i = 1; i <= 10; i++) {
                log.append(good("round-" + round + "-" + i), 1_000);
            }
            DecisionLogTest.awaitUntil(() -> log.written() == expected, () -> "round written: " + log.health());
        }

        assertEquals(3, log.failed());
        assertEquals(0, log.dropped());
        assertTrue(log.health().writerAlive());
        log.close();
        assertEquals(30, loggedIds(file).size());
    }

    @Test
    void inRequiredModeExactlyTheDecisionWhoseRecordFailedIsRefused() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.REQUIRED);
        Audit audit = new Audit(log, new RecentDecisions(100), new Metrics(), false);
        ObjectNode result = Documents.jsonMapper().createObjectNode().put("decisionId", "poisoned").put("outcome", "SELECTED");

        // Appended together, so that the writer takes them in one batch.
        List<DecisionLog.Receipt> before = new ArrayList<>();
        goodIds(20).forEach(id -> before.add(log.append(good(id), 1_000)));
        DecisionLog.Receipt poisoned = log.append(poisoned("poisoned"), 1_000);
        DecisionLog.Receipt after = log.append(good("after"), 1_000);

        before.forEach(DecisionLog.Receipt::awaitWritten);
        DecisionLogUnavailableException refused = assertThrows(DecisionLogUnavailableException.class, poisoned::awaitWritten);
        after.awaitWritten();
        assertTrue(refused.getMessage().contains("poisoned") && refused.getMessage().contains("not valid Unicode"),
                refused.getMessage());

        // Through the audit: the refused decision is neither indexed nor counted; the next one is answered.
        assertThrows(DecisionLogUnavailableException.class, () -> audit.record("rollout", new byte[0],
                poisoned("poisoned-2").request(), poisoned("poisoned-2").result(), 1_000));
        audit.record("implementation", new byte[0], good("x").request(),
                result.deepCopy().put("decisionId", "answered"), 1_000);
        assertFalse(audit.find("poisoned-2").isPresent());
        assertTrue(audit.find("answered").isPresent());
        assertTrue(log.health().ready(), "one record's failure leaves the log ready: " + log.health());
        audit.close();

        assertEquals(2, log.failed());
        List<String> expected = new ArrayList<>(goodIds(20));
        expected.addAll(List.of("after", "answered"));
        assertEquals(expected, loggedIds(file));
    }

    @Test
    void inRequiredModeADecisionIsAnsweredOnlyOnceItsRecordIsInTheFile() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.REQUIRED);

        for (int i = 1; i <= 20; i++) {
            log.append(good("d-" + i), 1_000).awaitWritten();
            assertEquals("d-" + i, loggedIds(file).get(i - 1), "written before the decision is answered");
        }
        log.close();
    }

    /** A value whose serialisation throws an Error, as a bug or an exhausted heap would. */
    public static final class Exploding {
        public String getValue() {
            throw new AssertionError("boom");
        }
    }

    @Test
    void anErrorWhileWritingARecordLeavesTheWriterRunning() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.set("exploding", new POJONode(new Exploding()));

        log.append(record("exploding", request), 1_000);
        DecisionLogTest.awaitUntil(() -> log.failed() == 1, () -> "the record fails: " + log.health());
        goodIds(10).forEach(id -> log.append(good(id), 1_000));
        DecisionLogTest.awaitUntil(() -> log.written() == 10, () -> "the next records are written: " + log.health());

        assertTrue(log.health().writerAlive());
        assertTrue(log.health().lastError().contains("exploding"), log.health().lastError());
        log.close();
        assertEquals(goodIds(10), loggedIds(file));
    }

    @Test
    void aFailedRotationDoesNotStopTheLog() throws Exception {
        Path file = temp.resolve("decisions.log");
        // The rotated file's name is taken by a directory that is not empty: every rotation fails.
        Files.createDirectories(temp.resolve("decisions.log.1").resolve("occupied"));
        FileDecisionLog log = new FileDecisionLog(file, 1_000, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);

        goodIds(20).forEach(id -> log.append(good(id), 1_000));
        log.close();

        assertEquals(20, log.written());
        assertEquals(goodIds(20), loggedIds(file), "the records go on into the unrotated file");
        assertTrue(log.health().lastError().contains("cannot rotate"), log.health().lastError());
    }
}
