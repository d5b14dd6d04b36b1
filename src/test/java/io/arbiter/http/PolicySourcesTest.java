package io.arbiter.http;

import io.arbiter.audit.AuditSettings;
import io.arbiter.decision.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No per-pod state (issue 47): a PUT changes the source of truth, or says why it cannot. With --watch the files are
 * the source (409 naming them); a --policy file without --watch is written, so a restart serves the change; the
 * embedded default says the change lives only in this process.
 */
class PolicySourcesTest {

    private static final String TOKEN = "sources-admin-token";
    private static final String CHANGED = """
            interface:
              rules:
                - interface: {path: cap.*}
                  oneOf:
                    - implementationConstraints: {}
            """;

    @TempDir
    Path dir;

    private static HttpTestClient.Response put(HttpTestClient client, String yaml) {
        return client.send("PUT", "/v1/policy", "application/yaml", yaml.getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + TOKEN);
    }

    private Path policyFile() throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.copy(Path.of("fixtures/embedded/policy.yaml"), file);
        return file;
    }

    @Test
    void withWatchAPutIs409NamingTheWatchedFile() throws Exception {
        Path file = policyFile();
        byte[] before = Files.readAllBytes(file);
        ArbiterServer server = TestServers.start(new ServerOptions("127.0.0.1", 0, Settings.embedded().withPolicyFile(file),
                TOKEN, TestServers.SHUTDOWN_GRACE, AuditSettings.OFF, true));
        try {
            HttpTestClient client = new HttpTestClient(server.port());
            String etag = client.get("/v1/policy").header("ETag");

            var answer = put(client, CHANGED);

            assertEquals(409, answer.status(), answer.body());
            assertEquals("POLICY_CONFLICT", answer.errorCode());
            assertTrue(answer.json().path("error").path("message").asText().contains(file.toAbsolutePath().toString()), answer.body());
            assertEquals(etag, client.get("/v1/policy").header("ETag"), "the live policy is unchanged");
            assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(file));
            assertEquals("files", client.get("/v1/status").json().path("source").path("kind").asText());
        } finally {
            server.stop();
        }
    }

    @Test
    void aPutToAWritablePolicyFileSurvivesARestart() throws Exception {
        Path file = policyFile();
        ServerOptions options = new ServerOptions("127.0.0.1", 0, Settings.embedded().withPolicyFile(file), TOKEN,
                TestServers.SHUTDOWN_GRACE);
        ArbiterServer first = TestServers.start(options);
        String revision;
        try {
            var answer = put(new HttpTestClient(first.port()), CHANGED);
            assertEquals(200, answer.status(), answer.body());
            assertTrue(answer.json().path("note").isMissingNode(), "the change lives in the file: " + answer.body());
            revision = answer.json().path("revision").asText();
        } finally {
            first.stop();
        }
        assertEquals(CHANGED, Files.readString(file));
        try (var leftovers = Files.list(dir)) {
            assertEquals(1, leftovers.count(), "no temporary file is left beside the policy");
        }

        ArbiterServer restarted = TestServers.start(options);
        try {
            assertEquals("\"" + revision + "\"", new HttpTestClient(restarted.port()).get("/v1/policy").header("ETag"));
        } finally {
            restarted.stop();
        }
    }

    @Test
    void theEmbeddedDefaultSaysTheChangeLivesOnlyInThisProcess() throws Exception {
        ArbiterServer server = TestServers.embedded(TOKEN);
        try {
            var answer = put(new HttpTestClient(server.port()), CHANGED);
            assertEquals(200, answer.status(), answer.body());
            assertTrue(answer.json().path("note").asText().contains("only in this process"), answer.body());
        } finally {
            server.stop();
        }
    }
}
