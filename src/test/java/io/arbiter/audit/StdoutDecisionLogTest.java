package io.arbiter.audit;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stdout sink: one whole JSON line per record on a pipe, as a log collector reads it; a closed pipe fails records. */
class StdoutDecisionLogTest {

    @RegisterExtension
    final LogCapture logs = LogCapture.of(StdoutDecisionLog.class);

    /** A record as Audit encodes it: its JSON line's bytes. */
    private static DecisionRecord record(String id) {
        com.fasterxml.jackson.databind.node.ObjectNode line = Documents.jsonMapper().createObjectNode()
                .put("decisionId", id).put("timestamp", "2026-11-24T00:00:00Z").put("endpoint", "implementation")
                .put("requestDigest", "sha256:ab");
        line.putObject("request").put("cluster", "c-" + id);
        line.put("policyRevision", "policy-1").put("rulesRevision", "rules-1").put("catalogRevision", "catalog-1")
                .put("typeInstancesRevision", "store-1").put("outcome", "SELECTED").put("durationMicros", 1);
        line.putObject("result").put("decisionId", id);
        return new DecisionRecord(id, "policy-1", line.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void everyRecordIsOneJsonLineInOrder() throws Exception {
        Pipe pipe = Pipe.open();
        StdoutDecisionLog log = new StdoutDecisionLog(pipe.sink(), "the pipe", 100, 1L << 20, DecisionLog.Mode.REQUIRED);
        List<String> lines = new ArrayList<>();
        Thread collector = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(Channels.newInputStream(pipe.source()),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        collector.start();

        for (int i = 1; i <= 50; i++) {
            log.append(record("s-" + i)).awaitWritten();
        }
        log.close();
        pipe.sink().close();
        collector.join(10_000);

        assertEquals(50, lines.size());
        for (int i = 1; i <= 50; i++) {
            JsonNode line = Documents.jsonMapper().readTree(lines.get(i - 1));
            assertEquals("s-" + i, line.path("decisionId").asText());
            assertEquals("c-s-" + i, line.path("request").path("cluster").asText());
        }
        assertEquals(50, log.written());
    }

    @Test
    void aCollectorThatWentAwayFailsTheRecordsAndRequiredModeRefusesThem() throws Exception {
        Pipe pipe = Pipe.open();
        pipe.source().close();
        StdoutDecisionLog log = new StdoutDecisionLog(pipe.sink(), "the pipe", 100, 1L << 20, DecisionLog.Mode.REQUIRED);

        DecisionLogUnavailableException refused = assertThrows(DecisionLogUnavailableException.class,
                () -> log.append(record("lost")).awaitWritten());

        assertTrue(refused.getMessage().contains("cannot write to the pipe"), refused.getMessage());
        assertEquals(1, log.failed());
        assertFalse(log.health().ready(), log.health().toString());
        log.close();
        logs.await(Level.ERROR, "decision log: cannot write to the pipe");
    }
}
