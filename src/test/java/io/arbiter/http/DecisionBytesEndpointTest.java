package io.arbiter.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.audit.Audit;
import io.arbiter.audit.DecisionLog;
import io.arbiter.audit.FileDecisionLog;
import io.arbiter.audit.Metrics;
import io.arbiter.audit.RecentDecisions;
import io.arbiter.runtime.Decisions;
import io.arbiter.decision.Settings;
import io.arbiter.document.Documents;
import io.arbiter.policytype.PolicyTypeRegistry;
import io.arbiter.testing.Fixtures;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A decision is encoded once: the decision log's record embeds the very bytes the client received, and the
 * recent-decision index answers the logged line. Where the response carries parameter values, the log masks them.
 */
class DecisionBytesEndpointTest {

    private static final String PLAIN = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\", \"revision\": \"0.1.0\"}}";
    private static final String WITH_SECRET = """
            {"interface": {"path": "cap.interface.database.postgresql.install", "revision": "0.1.0"},
             "actionPolicy": {"interface": {"rules": [{"interface": {"path": "cap.interface.database.postgresql.install"},
               "oneOf": [{"implementationConstraints": {"path": "cap.implementation.bitnami.postgresql.install"},
                          "inject": {"additionalParameters": [{"name": "additional-parameters", "value": {"password": "s3cret"}}]}}]}]}}}
            """;

    @TempDir
    static Path temp;

    private static Vertx vertx;
    private static Audit audit;
    private static Path logFile;
    private static HttpTestClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        logFile = temp.resolve("decisions.log");
        audit = new Audit(new FileDecisionLog(logFile, 1L << 30, 1, 1_000, DecisionLog.Mode.REQUIRED),
                new RecentDecisions(100), new Metrics(), false);
        Decisions decisions = new Decisions(PolicyTypeRegistry.discover(), Fixtures.snapshot(Fixtures.embeddedPolicy()), audit);
        HttpServer server = vertx.createHttpServer()
                .requestHandler(ArbiterServer.router(vertx, decisions, new ServerOptions("127.0.0.1", 0, Settings.embedded(), null)))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client = new HttpTestClient(server.actualPort());
    }

    @AfterAll
    static void stop() {
        audit.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** The logged line of a decision (REQUIRED mode: written before the decision was answered). */
    private static String loggedLine(String decisionId) throws Exception {
        List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("{\"decisionId\":\"" + decisionId + "\"")).toList();
        assertEquals(1, lines.size(), "one record of " + decisionId);
        return lines.get(0);
    }

    @Test
    void theLogRecordCarriesTheBytesOfTheResponse() throws Exception {
        HttpTestClient.Response response = client.postJson("/v1/decisions/implementation", PLAIN);
        assertEquals(200, response.status(), response.body());
        String id = response.json().path("decisionId").asText();

        String line = loggedLine(id);

        assertTrue(line.contains(",\"result\":" + response.body() + ",\"ruleSources\":{"), "the response's bytes, as sent: " + line);
        HttpTestClient.Response indexed = client.get("/v1/decisions/" + id);
        assertEquals(200, indexed.status());
        assertEquals(line, indexed.body(), "the index answers the logged record");
    }

    @Test
    void parameterValuesAreAnsweredToTheCallerButMaskedInTheLog() throws Exception {
        HttpTestClient.Response response = client.postJson("/v1/decisions/implementation", WITH_SECRET);
        assertEquals(200, response.status(), response.body());
        assertTrue(response.body().contains("s3cret"), "the caller gets the parameters: " + response.body());
        String id = response.json().path("decisionId").asText();

        String line = loggedLine(id);

        assertFalse(line.contains("s3cret"), line);
        JsonNode logged = Documents.jsonMapper().readTree(line);
        assertEquals("***", logged.path("result").path("inject").path("additionalParameters").get(0).path("value").asText(), line);
        assertEquals(response.json().path("firedRules"), logged.path("result").path("firedRules"));
    }
}
