package io.arbiter.http;

import ch.qos.logback.classic.Level;
import io.arbiter.decision.Settings;
import io.arbiter.runtime.Reloader;
import io.arbiter.testing.LogCapture;
import io.arbiter.testing.RuleTestSupport;
import io.arbiter.testing.Signal;
import io.arbiter.testing.TestFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve --watch}: a good change is swapped in; a change that fails to parse, validate or compile is
 * rejected, the previous snapshot keeps serving, and the error shows on /readyz and /metrics.
 */
class ReloadTest {

    private static final String GOOD = "interface: {rules: [{interface: {path: cap.*}, oneOf: [{implementationConstraints: {}}]}]}\n";
    private static final String OTHER = "interface: {rules: [{interface: {path: cap.interface.x}, oneOf: []}]}\n";
    /**
     * Each change is written whole (a symlink swap, a single small write), so a short settle period loses nothing
     * here; {@code ReloaderTest} checks the settling itself on a clock of its own.
     */
    private static final Duration SETTLE = Duration.ofMillis(100);

    @TempDir
    Path temp;

    /** Each rejected reload is an ERROR (and Drools logs the broken rule's compile error). */
    @RegisterExtension
    final LogCapture reloadLog = LogCapture.of(Reloader.class.getName(), RuleTestSupport.DROOLS_COMPILE_LOG);

    private ArbiterServer server;
    private HttpTestClient client;
    private Path policy;
    private Path rules;
    private Path tables;
    private int generation;
    private final Signal reloaded = new Signal();

    @BeforeEach
    void start() throws Exception {
        rules = TestFiles.copyTree(Path.of("rules"), temp.resolve("rules"));
        tables = TestFiles.copyTree(Path.of("decision-tables"), temp.resolve("decision-tables"));
        TestFiles.copyTree(Path.of("src/test/resources/rules"), rules);
        TestFiles.copyTree(Path.of("src/test/resources/decision-tables"), tables);
        Path config = Files.createDirectories(temp.resolve("config"));
        writePolicy(GOOD);
        policy = Files.createSymbolicLink(config.resolve("policy.yaml"), Path.of("..data/policy.yaml"));
        Settings settings = Settings.embedded().withPolicyFile(policy).withRules(rules, tables);
        server = ArbiterServer.start(new ServerOptions("127.0.0.1", 0, settings, null, Duration.ofMillis(200),
                io.arbiter.audit.AuditSettings.OFF, true).withWatchSettle(SETTLE)).toCompletionStage().toCompletableFuture().get();
        server.decisions().onReload(state -> reloaded.run());
        client = new HttpTestClient(server.port());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /** Swaps a new policy in the way a Kubernetes ConfigMap mount does: a new folder, then an atomic symlink swap. */
    private void writePolicy(String yaml) throws IOException {
        Path config = Files.createDirectories(temp.resolve("config"));
        Path version = Files.createDirectories(config.resolve("..v" + (++generation)));
        Files.writeString(version.resolve("policy.yaml"), yaml);
        Path link = config.resolve("..data_tmp");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, version.getFileName());
        Files.move(link, config.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** /readyz once it meets {@code condition}, looked at again after each reload. */
    private HttpTestClient.Response awaitReady(Predicate<HttpTestClient.Response> condition) throws InterruptedException {
        return reloaded.await(() -> client.get("/readyz"), condition, Duration.ofSeconds(30),
                last -> "/readyz says " + last.body());
    }

    private static boolean rejected(HttpTestClient.Response readyz) {
        return !readyz.json().path("lastReloadError").isNull();
    }

    @Test
    void aGoodPolicyIsSwappedInAndEachBadChangeIsRejected() throws Exception {
        String first = client.get("/readyz").json().path("policyRevision").asText();

        writePolicy(OTHER);
        String second = awaitReady(r -> !r.json().path("policyRevision").asText().equals(first)).json().path("policyRevision").asText();
        assertTrue(client.get("/v1/policy").body().contains("cap.interface.x"));

        writePolicy("interface: {rules: [unclosed\n");
        var badYaml = awaitReady(ReloadTest::rejected);
        assertEquals(second, badYaml.json().path("policyRevision").asText());
        assertEquals(200, badYaml.status());

        writePolicy(GOOD);
        awaitReady(r -> !rejected(r));
        writePolicy("interface: {rules: [{interface: {path: cap.*}, oneOf: [], colour: red}]}\n");
        var invalid = awaitReady(ReloadTest::rejected);
        assertTrue(invalid.json().path("lastReloadError").asText().contains("colour"), invalid.body());
        assertTrue(client.get("/v1/policy").body().contains("implementationConstraints"), "the good policy keeps serving");

        writePolicy(GOOD);
        awaitReady(r -> !rejected(r));
        String rulesBefore = client.get("/readyz").json().path("rulesRevisions").toString();
        Files.writeString(rules.resolve("implementation/99-broken.drl"), "package x;\nrule \"broken\" when Nope( then end\n");
        var brokenDrl = awaitReady(ReloadTest::rejected);
        assertTrue(brokenDrl.json().path("lastReloadError").asText().contains("does not compile"), brokenDrl.body());
        assertEquals(rulesBefore, brokenDrl.json().path("rulesRevisions").toString());
        var decision = client.postJson("/v1/decisions/implementation", "{\"interface\": {\"path\": \"cap.interface.database.postgresql.install\"}}");
        assertEquals(200, decision.status(), "the previous rules keep deciding");

        Files.delete(rules.resolve("implementation/99-broken.drl"));
        awaitReady(r -> !rejected(r));
        Files.writeString(tables.resolve("implementation/rule-key-precedence.drl.csv"), "this is not,a decision table\n");
        var corruptTable = awaitReady(ReloadTest::rejected);
        assertTrue(corruptTable.json().path("lastReloadError").asText().contains("rule-key-precedence.drl.csv"), corruptTable.body());
        assertEquals(rulesBefore, corruptTable.json().path("rulesRevisions").toString());

        String metrics = client.get("/metrics").body();
        assertTrue(metrics.matches("(?s).*arbiter_policy_reloads_total\\{result=\"failure\"} [4-9].*"), metrics);
        var status = client.get("/v1/status").json();
        assertTrue(status.path("rejectedReloads").asInt() >= 4, status.toString());
        reloadLog.await(Level.ERROR, "reload rejected, the previous snapshot keeps serving: decision table "
                + "implementation/rule-key-precedence.drl.csv");
        assertNotEquals(first, second);
    }

    /** Issue 45: a reload whose table does not compile is told as lint tells it, at the table's row and column. */
    @Test
    void aTableThatDoesNotCompileIsReportedAsLintReportsIt() throws Exception {
        Path table = tables.resolve("implementation/rule-key-precedence.drl.csv");
        Files.writeString(table, Files.readString(table).replace("PATH_REVISION,1", "PATH_REVISON,1"));
        var rejected = awaitReady(ReloadTest::rejected);
        String error = rejected.json().path("lastReloadError").asText();
        assertTrue(error.contains("does not compile (as arbiter lint --rules " + rules + " --decision-tables " + tables
                + " reports it)"), error);
        assertTrue(error.contains("10:3: error [unknown-value]"), error);
        assertTrue(!error.contains("line -1"), error);
    }
}
