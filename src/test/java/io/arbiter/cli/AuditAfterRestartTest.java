package io.arbiter.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.arbiter.document.Documents;
import io.arbiter.http.ArbiterServer;
import io.arbiter.policytype.PolicyTypeRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 46: a decision record alone answers "why". A server run as {@code serve} runs it (its decision log and
 * snapshot archive named, as the defaults would put them in the working directory) decides a request that carries
 * only an Interface, is stopped and started again; {@code arbiter audit --id} then explains that decision from the
 * log alone, phase by phase with the rejections, and {@code --replay} decides it again identically.
 */
class AuditAfterRestartTest {

    private static final String INTERFACE_ONLY = "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}";

    @TempDir
    Path dir;

    private ArbiterServer serve() throws Exception {
        var parsed = ArbiterCli.commandLine(PolicyTypeRegistry.discover()).parseArgs("serve", "--port", "0",
                "--decision-log", log().toString(), "--snapshot-archive", archive().toString());
        ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
        return ArbiterServer.start(serve.serverOptions(null)).toCompletionStage().toCompletableFuture().get();
    }

    private Path log() {
        return dir.resolve("arbiter-decisions.log");
    }

    private Path archive() {
        return dir.resolve("arbiter-snapshots");
    }

    private static JsonNode decide(ArbiterServer server) throws Exception {
        HttpResponse<String> response = io.arbiter.testing.ResponseContract.check(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/v1/decisions/implementation"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(INTERFACE_ONLY)).build(),
                HttpResponse.BodyHandlers.ofString()));
        assertEquals(200, response.statusCode(), response.body());
        return Documents.jsonMapper().readTree(response.body());
    }

    @Test
    void anInterfaceOnlyDecisionIsExplainedFromItsRecordAfterARestart() throws Exception {
        ArbiterServer first = serve();
        JsonNode decided;
        try {
            decided = decide(first);
        } finally {
            first.stop();
        }
        String id = decided.path("decisionId").asText();
        ArbiterServer second = serve();
        try {
            assertTrue(!decide(second).path("decisionId").asText().equals(id), "the restarted server decides anew");
        } finally {
            second.stop();
        }

        CliRun why = CliRun.run("audit", log().toString(), "--id", id);

        assertEquals(0, why.exit(), why.err());
        String text = why.out();
        assertTrue(text.startsWith("decision " + id + " (implementation, capact.implementation 0.2.0)"), text);
        assertTrue(text.contains(": SELECTED"), text);
        assertTrue(text.contains("under: snapshot " + decided.path("snapshotRevision").asText()), text);
        assertTrue(text.contains("\"selected\":{\"path\":\"cap.implementation.bitnami.postgresql.install\""), text);
        assertTrue(text.contains("why: " + decided.path("firedRules").size() + " rules fired, phase by phase:"), text);
        int trial = text.indexOf("\n  trial (");
        int rejection = text.indexOf("\n  rejection (");
        int matching = text.indexOf("\n  matching (");
        int outcome = text.indexOf("\n  outcome (");
        assertTrue(0 < trial && trial < rejection && rejection < matching && matching < outcome, text);
        // a rejection's rule is its reason, its facts the trial it rejects
        assertTrue(text.substring(rejection, matching).contains("Aliased allOf requirement has no injected TypeInstance ("
                + "rules/implementation/"), text);
        assertTrue(text.substring(rejection, matching).contains(")  [trial cap.implementation.aws.rds.postgresql.install:0.1.0 for "), text);
        // every rule that fired is named with where it is written: a DRL file's line or a decision table's row
        assertTrue(text.contains("Catch-all cap.* (decision-tables/implementation/rule-key-precedence.drl.csv:"), text);
        assertTrue(!text.contains(" (?)"), text);
        assertTrue(text.substring(outcome).contains("Outcome SELECTED when a oneOf item won"), text);

        CliRun replay = CliRun.run("audit", "--id", id, "--replay", log().toString(), "--archive", archive().toString());
        assertEquals(0, replay.exit(), replay.out() + replay.err());
        assertTrue(replay.out().contains("IDENTICAL: outcome SELECTED"), replay.out());
    }
}
