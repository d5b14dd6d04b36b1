package io.arbiter.http;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.Signal;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The decision log's health over HTTP: a required log that cannot write refuses the decision whose record failed
 * (the first one too) and makes {@code /readyz} answer 503; a best-effort log that cannot write leaves the service
 * ready and shows it; {@code /v1/status} and {@code /metrics} show the counts.
 */
class DecisionLogHealthEndpointTest {

    private static final String REQUEST = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}";
    private static final Path FULL = Path.of("/dev/full");

    @TempDir
    static Path temp;

    @RegisterExtension
    final LogCapture logs = LogCapture.of(FileDecisionLog.class, Responses.class);

    private static Vertx vertx;
    private static final List<Audit> audits = new ArrayList<>();

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        audits.forEach(Audit::close);
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** The service's routes over a decision log of its own. */
    private static HttpTestClient serve(DecisionLog log) throws Exception {
        Audit audit = new Audit(log, new RecentDecisions(100), new Metrics(), false);
        audits.add(audit);
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        HttpServer server = vertx.createHttpServer()
                .requestHandler(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null)))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return new HttpTestClient(server.actualPort());
    }

    /** {@code path}'s answer once it meets {@code condition}, asked again each time the log counts a record. */
    private static HttpTestClient.Response awaitGet(HttpTestClient client, String path, Signal counted,
                                                    Predicate<HttpTestClient.Response> condition) throws InterruptedException {
        return counted.await(() -> client.get(path), condition, Duration.ofSeconds(10), last -> path + " says " + last.body());
    }

    @Test
    void aRequiredLogThatCannotWriteRefusesTheFirstDecisionAndIsNotReady() throws Exception {
        assumeTrue(Files.isWritable(FULL), "/dev/full is not available");
        HttpTestClient client = serve(new FileDecisionLog(FULL, 1L << 30, 1, 100, DecisionLog.Mode.REQUIRED));
        assertEquals(200, client.get("/readyz").status(), "ready before any write failed");

        HttpTestClient.Response decision = client.postJson("/v1/decisions/implementation", REQUEST);

        assertEquals(503, decision.status(), decision.body());
        assertEquals("INTERNAL", decision.errorCode());
        assertTrue(decision.json().path("error").path("message").asText().contains("No space left"), decision.body());
        HttpTestClient.Response ready = client.get("/readyz");
        assertEquals(503, ready.status(), ready.body());
        assertEquals("NOT_READY", ready.json().path("status").asText());
        assertTrue(ready.json().path("error").path("message").asText().contains("decision log is required"), ready.body());
        JsonNode log = ready.json().path("decisionLog");
        assertEquals("REQUIRED", log.path("mode").asText());
        assertTrue(log.path("writerAlive").asBoolean() && !log.path("writable").asBoolean(), log.toString());
        assertEquals(1, log.path("failed").asLong());
        assertEquals(0, log.path("written").asLong());
        assertTrue(log.path("lastError").asText().contains("No space left"), log.toString());
        assertFalse(log.path("lastErrorAt").isNull(), log.toString());

        String metrics = client.get("/metrics").body();
        assertTrue(metrics.contains("arbiter_decision_log_failed 1.0"), metrics);
        assertTrue(metrics.contains("arbiter_decision_log_writable 0.0"), metrics);
        assertTrue(metrics.contains("arbiter_decision_log_writer_alive 1.0"), metrics);
        assertTrue(metrics.matches("(?s).*arbiter_decision_log_last_error_timestamp_seconds [1-9].*"), metrics);
        logs.await(Level.ERROR, "decision log: cannot write /dev/full: No space left on device");
        logs.await(Level.WARN, "request POST /v1/decisions/implementation refused (503): the decision log is required");
    }

    @Test
    void aBestEffortLogThatCannotWriteStaysReadyAndShowsIt() throws Exception {
        assumeTrue(Files.isWritable(FULL), "/dev/full is not available");
        FileDecisionLog full = new FileDecisionLog(FULL, 1L << 30, 1, 100, DecisionLog.Mode.BEST_EFFORT);
        Signal counted = new Signal();
        full.onCounted(counted);
        HttpTestClient client = serve(full);

        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.postJson("/v1/decisions/implementation", REQUEST).status());
        }

        HttpTestClient.Response ready = awaitGet(client, "/readyz", counted,
                r -> r.json().path("decisionLog").path("failed").asLong() == 3);
        assertEquals(200, ready.status());
        assertEquals("READY", ready.json().path("status").asText());
        JsonNode log = ready.json().path("decisionLog");
        assertEquals("BEST_EFFORT", log.path("mode").asText());
        assertFalse(log.path("writable").asBoolean(), log.toString());
        assertTrue(log.path("lastError").asText().contains("No space left"), log.toString());
        assertEquals(3, client.get("/v1/status").json().path("decisionLog").path("failed").asLong());
        logs.await(Level.ERROR, "decision log: cannot write /dev/full: No space left on device");
    }

    @Test
    void aWritingLogShowsItsCountsOnStatusAndMetrics() throws Exception {
        HttpTestClient client = serve(new FileDecisionLog(temp.resolve("decisions.log"), 1L << 30, 1, 100,
                DecisionLog.Mode.REQUIRED));

        assertEquals(200, client.postJson("/v1/decisions/implementation", REQUEST).status());

        // REQUIRED: the decision was answered once its record was written, so the count is there at once.
        JsonNode log = client.get("/v1/status").json().path("decisionLog");
        assertEquals(1, log.path("written").asLong(), log.toString());
        assertEquals(0, log.path("failed").asLong());
        assertTrue(log.path("writerAlive").asBoolean() && log.path("writable").asBoolean(), log.toString());
        assertTrue(log.path("lastError").isNull(), log.toString());
        assertEquals(200, client.get("/readyz").status());
        String metrics = client.get("/metrics").body();
        assertTrue(metrics.contains("arbiter_decision_log_written 1.0"), metrics);
        assertTrue(metrics.contains("arbiter_decision_log_last_error_timestamp_seconds 0.0"), metrics);
    }
}
