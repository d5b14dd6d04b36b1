package io.arbiter.audit;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import io.arbiter.document.Documents;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

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
 * One record cannot poison the decision log. Records are encoded by {@link Audit} on the deciding thread, so the
 * log's writer only moves bytes: a decision whose record cannot be encoded fails alone, before the log sees it, and
 * the decisions after it are logged. The records are built in-process, past the HTTP edge (which refuses such text
 * in requests), since the audit must take whatever reaches it. The poison found in the wild: a lone UTF-16
 * surrogate in a request string becomes part of a fact's id.
 */
class DecisionLogIsolationTest {

    /** A lone high surrogate: there is no UTF-8 for it. */
    private static final String LONE_SURROGATE = "a\ud800";

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture logs = LogCapture.of(FileDecisionLog.class);

    private static ObjectNode result(String id) {
        return Documents.jsonMapper().createObjectNode().put("decisionId", id).put("outcome", "SELECTED");
    }

    private static void record(Audit audit, String id, JsonNode request, ObjectNode result) throws IOException {
        audit.record(Decideds.of(audit, "implementation", new byte[0], request, result), 1_000);
    }

    private static void good(Audit audit, String id) throws IOException {
        record(audit, id, Documents.jsonMapper().createObjectNode().put("cluster", "c-" + id), result(id));
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

    @Test
    void aLoneSurrogateIsWrittenEscapedAndTheNextHundredAreWritten() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);
        Audit audit = new Audit(log, new RecentDecisions(1_000), new Metrics(), false);
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.putArray("clusters").addObject().put("name", LONE_SURROGATE);
        ObjectNode poisoned = result("poisoned-1");
        poisoned.putArray("firedRules").addObject().put("rule", "p.r").putArray("facts").add("cluster " + LONE_SURROGATE);

        record(audit, "poisoned-1", request, poisoned);
        for (String id : goodIds(100)) {
            good(audit, id);
        }
        audit.close();

        assertEquals(0, log.failed());
        assertEquals(101, log.written());
        List<String> expected = new ArrayList<>(List.of("poisoned-1"));
        expected.addAll(goodIds(100));
        assertEquals(expected, loggedIds(file), "every record, whole, in order");
        String first = Files.readAllLines(file, StandardCharsets.UTF_8).get(0);
        assertTrue(first.toLowerCase(java.util.Locale.ROOT).contains("a\\ud800"), "the surrogate is escaped, not dropped: " + first);
    }

    /** A value whose serialisation throws an Error, as a bug or an exhausted heap would. */
    public static final class Exploding {
        public String getValue() {
            throw new AssertionError("boom");
        }
    }

    @Test
    void aRecordThatCannotBeEncodedFailsItsDecisionAloneAndNeverReachesTheLog() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.REQUIRED);
        Audit audit = new Audit(log, new RecentDecisions(1_000), new Metrics(), false);
        ObjectNode request = Documents.jsonMapper().createObjectNode();
        request.set("exploding", new POJONode(new Exploding()));

        good(audit, "good-1");
        assertThrows(Throwable.class, () -> record(audit, "exploding", request, result("exploding")));
        for (String id : goodIds(10).subList(1, 10)) {
            good(audit, id);
        }

        assertFalse(audit.find("exploding").isPresent(), "not indexed");
        assertTrue(log.health().ready() && log.health().writerAlive(), log.health().toString());
        audit.close();
        assertEquals(0, log.failed());
        assertEquals(goodIds(10), loggedIds(file));
    }

    @Test
    void inRequiredModeADecisionIsAnsweredOnlyOnceItsRecordIsInTheFile() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 1_000, DecisionLog.Mode.REQUIRED);

        for (int i = 1; i <= 20; i++) {
            log.append(DecisionLogTest.sized("d-" + i, 100)).awaitWritten();
            assertEquals("d-" + i, loggedIds(file).get(i - 1), "written before the decision is answered");
        }
        log.close();
    }

    @Test
    void aFailedRotationDoesNotStopTheLog() throws Exception {
        Path file = temp.resolve("decisions.log");
        // The rotated file's name is taken by a directory that is not empty: every rotation fails.
        Files.createDirectories(temp.resolve("decisions.log.1").resolve("occupied"));
        FileDecisionLog log = new FileDecisionLog(file, 1_000, 1, 1_000, DecisionLog.Mode.BEST_EFFORT);

        goodIds(20).forEach(id -> log.append(DecisionLogTest.sized(id, 100)));
        log.close();

        assertEquals(20, log.written());
        assertEquals(goodIds(20), loggedIds(file), "the records go on into the unrotated file");
        assertTrue(log.health().lastError().contains("cannot rotate"), log.health().lastError());
        logs.await(Level.ERROR, "decision log: cannot rotate " + file);
    }
}
