package io.arbiter.audit;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.runtime.Decisions;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.Signal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decision log: complete under concurrency, rotated by size, masked, and honest when the disk is full. */
class DecisionLogTest {

    private static final byte[] REQUEST = """
            {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
             "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
               "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"},
                          "inject": {"additionalParameters": [{"name": "additional-parameters", "value": {"password": "s3cret"}}]}}]}]}}}
            """.getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path temp;

    @RegisterExtension
    final LogCapture logs = LogCapture.of(FileDecisionLog.class);

    private static Decisions decisions(Audit audit) {
        return new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
    }

    private static List<JsonNode> readAll(Path... files) throws IOException {
        List<JsonNode> records = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                records.add(Documents.jsonMapper().readTree(line));
            }
        }
        return records;
    }

    @Test
    void tenThousandConcurrentDecisionsAreEachLoggedExactlyOnce() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 1L << 30, 3, 100_000, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(1_000), new Metrics(), false);
        Decisions decisions = decisions(audit);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<List<String>>> futures = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            futures.add(pool.submit(() -> {
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 1_250; i++) {
                    ids.add(decisions.decide("implementation", REQUEST, "application/json").path("decisionId").asText());
                }
                return ids;
            }));
        }
        List<String> ids = new ArrayList<>();
        for (Future<List<String>> future : futures) {
            ids.addAll(future.get());
        }
        pool.shutdown();
        audit.close();

        List<JsonNode> records = readAll(file);
        Map<String, Integer> seen = new HashMap<>();
        records.forEach(record -> seen.merge(record.path("decisionId").asText(), 1, Integer::sum));
        assertEquals(10_000, ids.size());
        assertEquals(10_000, records.size());
        assertTrue(ids.stream().allMatch(id -> seen.getOrDefault(id, 0) == 1), "every decision exactly once");
        JsonNode first = records.get(0);
        for (String field : new String[]{"decisionId", "timestamp", "endpoint", "requestDigest", "request", "outcome",
                "result", "durationMicros"}) {
            assertTrue(first.has(field), field + " in " + first);
        }
        assertTrue(first.path("result").has("policyRevision") && first.path("result").has("rulesRevision"), first.toString());
        assertTrue(first.path("result").path("firedRules").size() > 0);
        assertTrue(first.path("requestDigest").asText().startsWith("sha256:"));
        // The log is in append order, and each decision enters the index right after the log: the last 500 logged
        // are among the last 1,000 indexed whatever the threads' interleaving (a thread's own last decision may not be,
        // when other threads went on deciding after it finished).
        for (JsonNode record : records.subList(records.size() - 500, records.size())) {
            String id = record.path("decisionId").asText();
            assertTrue(decisions.recentDecision(id).isPresent(), "the index answers for the most recent decision " + id);
        }
        assertTrue(decisions.recentDecision(ids.get(0)).isEmpty() || ids.size() <= 1_000, "the index is bounded");
        assertEquals(0, audit.metrics().scrape().contains("arbiter_decision_log_dropped 0.0") ? 0 : 1);
    }

    @Test
    void aLogLineIsTheEnvelopeAroundTheVeryBytesOfTheResponse() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        JsonNode result = Documents.jsonMapper().readTree("""
                {"decisionId": "d-1", "outcome": "SELECTED", "selected": {"path": "cap.implementation.x", "revision": "0.1.0"},
                 "policyRevision": "policy-1", "rulesRevision": "rules-1", "catalogRevision": "catalog-1",
                 "typeInstancesRevision": "store-1",
                 "firedRules": [{"rule": "p.A rule", "order": 1, "facts": ["f1", "f2"]}]}
                """);
        JsonNode request = Documents.jsonMapper().readTree("{\"interface\": {\"path\": \"cap.interface.x\", \"revision\": \"é\"}}");
        byte[] response = Documents.jsonMapper().writeValueAsBytes(result);

        audit.record(Decideds.of(audit, "implementation", "{}".getBytes(StandardCharsets.UTF_8), request, result), 42_000);
        audit.close();

        byte[] line = Files.readAllBytes(file);
        String text = new String(line, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("}\n") && text.indexOf('\n') == text.length() - 1, "one line: " + text);
        String responseText = new String(response, StandardCharsets.UTF_8);
        assertTrue(text.endsWith(",\"result\":" + responseText + ",\"ruleSources\":{}}\n"), "the response's own bytes: " + text);
        JsonNode written = Documents.jsonMapper().readTree(line);
        assertEquals(List.of("decisionId", "timestamp", "endpoint", "requestDigest", "request", "outcome", "durationMicros",
                "result", "ruleSources"), iterable(written.fieldNames()), "the revisions are the result's, not repeated beside it");
        assertEquals("policy-1", written.get("result").get("policyRevision").asText());
        assertEquals("catalog-1", written.get("result").get("catalogRevision").asText());
        assertEquals("store-1", written.get("result").get("typeInstancesRevision").asText());
        assertEquals(request, written.get("request"));
        assertEquals(42, written.get("durationMicros").asLong());
        assertEquals(result, written.get("result"));
        DecisionRecord indexed = audit.find("d-1").orElseThrow();
        assertEquals(text.trim(), new String(indexed.json(), StandardCharsets.UTF_8), "the index keeps the line");
        assertEquals("policy-1", indexed.policyRevision());
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    @Test
    void theLogRotatesBySizeAndKeepsEveryRecord() throws Exception {
        Path file = temp.resolve("decisions.log");
        Audit audit = new Audit(new FileDecisionLog(file, 40_000, 50, 1_000, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(100), new Metrics(), false);
        Decisions decisions = decisions(audit);
        for (int i = 0; i < 40; i++) {
            decisions.decide("implementation", REQUEST, "application/json");
        }
        audit.close();

        List<Path> files;
        try (Stream<Path> listing = Files.list(temp)) {
            files = listing.sorted().toList();
        }
        assertTrue(files.size() > 1, "rotated into several files: " + files);
        assertTrue(files.stream().allMatch(f -> {
            try {
                return Files.size(f) <= 40_000 + 15_000;
            } catch (IOException e) {
                return false;
            }
        }));
        assertEquals(40, readAll(files.toArray(Path[]::new)).size());
    }

    @Test
    void aRotationKeepsTheNewestFilesInOrderAndDeletesTheOldest() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 2_500, 2, 1_000, DecisionLog.Mode.REQUIRED);
        for (int i = 1; i <= 10; i++) {
            log.append(sized("d-" + i, 1_200)); // two records per file
        }
        log.close();

        try (Stream<Path> listing = Files.list(temp)) {
            assertEquals(List.of("decisions.log", "decisions.log.1", "decisions.log.2"),
                    listing.map(path -> path.getFileName().toString()).sorted().toList());
        }
        List<String> kept = readAll(temp.resolve("decisions.log.2"), temp.resolve("decisions.log.1"), file).stream()
                .map(record -> record.path("decisionId").asText()).toList();
        assertEquals(List.of("d-5", "d-6", "d-7", "d-8", "d-9", "d-10"), kept, "oldest file first, the newest records");
    }

    @Test
    void parameterValuesAreMaskedUnlessParametersMayBeLogged() throws Exception {
        Path masked = temp.resolve("masked.log");
        Path clear = temp.resolve("clear.log");
        Audit maskedAudit = new Audit(new FileDecisionLog(masked, 1 << 20, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), false);
        Audit clearAudit = new Audit(new FileDecisionLog(clear, 1 << 20, 1, 100, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(10), new Metrics(), true);

        String id = decisions(maskedAudit).decide("implementation", REQUEST, "application/json").path("decisionId").asText();
        decisions(clearAudit).decide("implementation", REQUEST, "application/json");
        maskedAudit.close();
        clearAudit.close();

        String maskedText = Files.readString(masked);
        assertTrue(!maskedText.contains("s3cret"), maskedText);
        assertTrue(maskedText.contains("\"value\":\"***\""), maskedText);
        assertTrue(!new String(maskedAudit.find(id).orElseThrow().json(), StandardCharsets.UTF_8).contains("s3cret"));
        assertTrue(Files.readString(clear).contains("s3cret"));
        JsonNode maskedFirings = Documents.jsonMapper().readTree(maskedText).path("result").path("firedRules");
        JsonNode clearFirings = Documents.jsonMapper().readTree(Files.readString(clear)).path("result").path("firedRules");
        assertTrue(maskedFirings.size() > 10, maskedText);
        assertEquals(clearFirings.size(), maskedFirings.size());
        assertEquals(clearFirings.get(0).path("rule"), maskedFirings.get(0).path("rule"));
    }

    @Test
    void aFullDiskFailsEachRecordInBestEffortModeAndKeepsTrying() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is not available");
        FileDecisionLog log = new FileDecisionLog(full, 1L << 30, 1, 100, DecisionLog.Mode.BEST_EFFORT);
        Signal counted = new Signal();
        log.onCounted(counted);
        Audit audit = new Audit(log, new RecentDecisions(10), new Metrics(), false);
        Decisions decisions = decisions(audit);

        decisions.decide("implementation", REQUEST, "application/json");
        counted.await(() -> log.failed() == 1, WRITER, () -> "the first record fails: " + log.health());
        for (int i = 0; i < 19; i++) {
            decisions.decide("implementation", REQUEST, "application/json");
        }
        counted.await(() -> log.failed() == 20, WRITER, () -> "every later record is tried, not dropped: " + log.health());

        assertEquals(0, log.dropped());
        DecisionLog.Health health = log.health();
        assertTrue(health.ready(), "a best-effort log does not make the service unready");
        assertTrue(!health.writable() && health.writerAlive(), health.toString());
        assertTrue(health.lastError().contains("/dev/full") && health.lastError().contains("No space left"), health.lastError());
        String metrics = audit.metrics().scrape();
        assertTrue(metrics.contains("arbiter_decision_log_failed 20.0"), metrics);
        assertTrue(metrics.contains("arbiter_decision_log_writable 0.0"), metrics);
        audit.close();
        logs.await(Level.ERROR, "decision log: cannot write /dev/full: No space left on device");
    }

    @Test
    void aFullDiskRefusesTheFirstDecisionInRequiredMode() {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is not available");
        FileDecisionLog log = new FileDecisionLog(full, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED);
        Audit audit = new Audit(log, new RecentDecisions(10), new Metrics(), false);
        Decisions decisions = decisions(audit);

        for (int i = 0; i < 3; i++) {
            DecisionLogUnavailableException e = assertThrows(DecisionLogUnavailableException.class,
                    () -> decisions.decide("implementation", REQUEST, "application/json"), "decision " + i);
            assertTrue(e.getMessage().contains("required") && e.getMessage().contains("No space left"), e.getMessage());
        }

        assertEquals(3, log.failed());
        assertEquals(0, log.written());
        assertTrue(!log.health().ready(), "a required log that cannot write makes the service unready");
        assertTrue(log.health().notReadyReason().contains("No space left"), log.health().notReadyReason());
        audit.close();
        logs.await(Level.ERROR, "decision log: cannot write /dev/full: No space left on device");
    }

    /** How long a test waits for the writer thread to count a record: generous, it is never waited out when all is well. */
    private static final Duration WRITER = Duration.ofSeconds(10);

    /**
     * The waits of a {@link StalledLog}, whose writer never frees room nor writes a record in time: each is waited out
     * by the decision that is refused, so they are short (the defaults are 200 ms and 2 s).
     */
    private static final QueuedDecisionLog.RequiredWaits STALLED_WAITS =
            new QueuedDecisionLog.RequiredWaits(Duration.ofMillis(20), Duration.ofMillis(100));

    /** A record whose line is {@code lineBytes} long (at least about 30). */
    static DecisionRecord sized(String id, int lineBytes) {
        String head = "{\"decisionId\":\"" + id + "\",\"padding\":\"";
        String line = head + "x".repeat(lineBytes - head.length() - 2) + "\"}";
        return new DecisionRecord(id, "policy-1", line.getBytes(StandardCharsets.UTF_8));
    }

    /** The size of the record that stalls a {@link StalledLog}: larger than the pipe and the log's own buffer. */
    private static final int STUCK = 512 * 1024;

    /**
     * A log whose file is a pipe nobody reads yet: once its first record (larger than the pipe and the log's own
     * buffer) is being written, the writer is stuck and every later record waits in the buffer, as on a stalled disk.
     * {@code unblock} drains the pipe, so the log can be closed. The buffer holds the stuck record and {@code
     * bufferBytes} more.
     */
    private record StalledLog(FileDecisionLog log, Runnable unblock) {
        static StalledLog open(Path fifo, long bufferBytes, DecisionLog.Mode mode) throws Exception {
            org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0,
                    "mkfifo is not available");
            ExecutorService reader = Executors.newSingleThreadExecutor();
            Future<java.io.InputStream> opened = reader.submit(() -> Files.newInputStream(fifo));
            FileDecisionLog log = new FileDecisionLog(fifo, 1L << 40, 1, 100, STUCK + bufferBytes, mode, STALLED_WAITS);
            java.io.InputStream in = opened.get();
            log.append(sized("stuck", STUCK));
            // Once the record's first byte is in the pipe the writer has taken it from the queue and is stuck writing
            // it: a record appended from now on waits in the queue behind it, not in the same batch.
            assertTrue(reader.submit((java.util.concurrent.Callable<Integer>) in::read).get(30, java.util.concurrent.TimeUnit.SECONDS) >= 0, "the pipe closed");
            return new StalledLog(log, () -> reader.submit(() -> in.transferTo(java.io.OutputStream.nullOutputStream())));
        }
    }

    @Test
    void aBufferFullOfLargeRecordsDropsTheNextInBestEffortMode() throws Exception {
        StalledLog stalled = StalledLog.open(temp.resolve("stalled.fifo"), 600, DecisionLog.Mode.BEST_EFFORT);

        stalled.log().append(sized("fits", 600));
        stalled.log().append(sized("over the budget", 100));

        assertEquals(1, stalled.log().dropped());
        assertEquals(STUCK + 600, stalled.log().queuedBytes());
        stalled.unblock().run();
        stalled.log().close();
        assertEquals(2, stalled.log().written());
        assertEquals(0, stalled.log().queuedBytes());
    }

    @Test
    void aBufferFullOfLargeRecordsRefusesTheNextInRequiredMode() throws Exception {
        StalledLog stalled = StalledLog.open(temp.resolve("stalled.fifo"), 600, DecisionLog.Mode.REQUIRED);

        DecisionLogUnavailableException e = assertThrows(DecisionLogUnavailableException.class,
                () -> stalled.log().append(sized("over the budget", 601)));

        assertTrue(e.getMessage().contains("buffer is full"), e.getMessage());
        assertEquals(STUCK, stalled.log().queuedBytes(), "the refused record's reservation is given back");
        stalled.unblock().run();
        stalled.log().close();
        assertEquals(1, stalled.log().written());
    }

    @Test
    void aRecordNotWrittenInTimeRefusesItsDecisionAndIsLeftOutInRequiredMode() throws Exception {
        StalledLog stalled = StalledLog.open(temp.resolve("stalled.fifo"), 1_000_000, DecisionLog.Mode.REQUIRED);

        DecisionLog.Receipt late = stalled.log().append(sized("late", 100));
        DecisionLogUnavailableException e = assertThrows(DecisionLogUnavailableException.class, late::awaitWritten);

        assertTrue(e.getMessage().contains("not written within 100 ms"), e.getMessage());
        DecisionLog.Health health = stalled.log().health();
        assertEquals(1, health.failed());
        assertTrue(!health.writable() && !health.ready(), "a stalled required log is not ready: " + health);
        assertTrue(health.lastError().contains("late"), health.lastError());
        stalled.unblock().run();
        stalled.log().close();
        assertEquals(1, stalled.log().written(), "only the stuck record: the refused decision's record is left out");
        assertEquals(1, stalled.log().failed());
    }

    @Test
    void aRecordLargerThanTheWholeBufferIsStillWritten() throws Exception {
        Path file = temp.resolve("decisions.log");
        FileDecisionLog log = new FileDecisionLog(file, 1L << 30, 1, 100, 1_000, DecisionLog.Mode.REQUIRED);

        log.append(sized("huge", 50_000));
        log.close();

        assertEquals(1, log.written());
        assertEquals("huge", readAll(file).get(0).get("decisionId").asText());
    }

    @Test
    void aLogBufferWithoutRoomIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FileDecisionLog(temp.resolve("x.log"), 1L << 30, 1, 100, 0, DecisionLog.Mode.REQUIRED));
        assertTrue(e.getMessage().contains("bytes 0"), e.getMessage());
    }
}
